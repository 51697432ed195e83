import Foundation

/// URL slugs from titles: the title's letters and digits, in any script, joined by single hyphens.
///
/// Latin is folded to lowercase ASCII ("Café Zoë" → `cafe-zoe`), so the addresses English readers
/// already have stay as they were; every other script is kept as written, lowercased where it has
/// case (`渡輪班次延長至午夜`, `новости-дня`). Links in pages carry that form; on the wire it is
/// percent-encoded (`Response.redirect`, feeds and sitemaps encode it, the router decodes it).
public enum Slug {
    /// Counted in UTF-8 bytes, not characters: what a slug costs is its length on the wire and in
    /// the index, and a Chinese character is 3 bytes (9 once percent-encoded). 80 bytes keep a
    /// Latin slug at 80 letters, as before, and a Chinese one at 26 characters — a whole headline
    /// nearly always — which is 240 bytes percent-encoded, well inside any URL limit.
    public static let maximumBytes = 80

    /// The slug for `title`, or nil when it has no letter or digit in any script (the caller
    /// then uses something stable of its own: an article's id).
    public static func make(from title: String) -> String? {
        var slug = ""
        var pendingHyphen = false
        for character in title {
            // "Zoë's" → `zoes`, not `zoe-s`.
            if character == "'" || character == "’" { continue }
            guard isLetterOrDigit(character) else {
                pendingHyphen = true
                continue
            }
            let piece = folded(character)
            let hyphen = pendingHyphen && !slug.isEmpty
            // Stop before a character that would not fit whole: never half a character.
            guard slug.utf8.count + piece.utf8.count + (hyphen ? 1 : 0) <= maximumBytes else { break }
            if hyphen { slug.append("-") }
            slug += piece
            pendingHyphen = false
        }
        return slug.isEmpty ? nil : slug
    }

    /// A slug for a name with no letter or digit, the same every time it is asked: its characters'
    /// code points (`★` → `u2605`), as many as fit.
    public static func codePoints(of name: String) -> String {
        var slug = ""
        for scalar in name.unicodeScalars where !scalar.properties.isWhitespace {
            let piece = "u" + String(scalar.value, radix: 16)
            guard slug.utf8.count + piece.utf8.count + 1 <= maximumBytes else { break }
            slug += (slug.isEmpty ? "" : "-") + piece
        }
        return slug.isEmpty ? "u20" : slug
    }

    /// Letters of any script (CJK ideographs and kana are "other letters", `ー` a modifier letter)
    /// and digits, `〇` and Roman numerals among them. A character's marks travel with it.
    static func isLetterOrDigit(_ character: Character) -> Bool {
        guard let first = character.unicodeScalars.first else { return false }
        switch first.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .decimalNumber,
            .letterNumber:
            return true
        default:
            return false
        }
    }

    /// A Latin letter without its accents, lowercased ASCII ("É" → `e`, full-width "Ａ" → `a`);
    /// any other character lowercased and composed, its marks kept: dropping them would change
    /// the word (Japanese `が` is not `か`).
    static func folded(_ character: Character) -> String {
        let text = String(character)
        let ascii = text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
        if !ascii.isEmpty && ascii.utf8.allSatisfy({ $0 < 0x80 }) { return ascii.lowercased() }
        return text.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
            .precomposedStringWithCanonicalMapping
    }
}
