/// The languages Herald's interface is written in (SPEC, third wave, "Language"). Each has a
/// message catalog in `Templates/messages/`; adding one means adding a case and its catalog.
public enum InterfaceLanguage: String, CaseIterable, Sendable, Hashable {
    case english = "en"
    case traditionalChinese = "zh-Hant"

    /// The interface language a BCP 47 tag asks for, or nil when Herald has none for it.
    /// Traditional Chinese is what Taiwan, Hong Kong and Macau write (`zh-TW`, `zh-HK`, `zh-MO`)
    /// and anything tagged `zh-Hant`; Simplified Chinese (`zh-CN`, `zh-Hans`, `zh-SG`) and a bare
    /// `zh` are not it, so they fall through to the next choice rather than get the wrong script.
    public init?(tag: some StringProtocol) {
        let subtags = tag.split(separator: "-", omittingEmptySubsequences: false).map { $0.lowercased() }
        guard let primary = subtags.first else { return nil }
        switch primary {
        case "en":
            self = .english
        case "zh":
            let rest = subtags.dropFirst()
            if rest.contains("hans") { return nil }
            if rest.contains("hant") || rest.contains(where: { ["tw", "hk", "mo"].contains($0) }) {
                self = .traditionalChinese
            } else {
                return nil
            }
        default:
            return nil
        }
    }

    /// The site's own language (`HERALD_LANGUAGE`) as an interface language: English unless it
    /// names Traditional Chinese.
    public static func siteDefault(_ tag: String) -> InterfaceLanguage {
        InterfaceLanguage(tag: tag) ?? .english
    }

    /// How the language names itself, for the switcher (each button in its own language).
    public var ownName: String {
        switch self {
        case .english: "English"
        case .traditionalChinese: "繁體中文"
        }
    }
}
