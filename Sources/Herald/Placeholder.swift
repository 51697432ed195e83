public enum HeraldPlaceholder {}
