/// What the site is called and says about itself: page titles, the masthead, the footer, feeds,
/// mail, and the `lang` of every page. `HERALD_SITE_NAME`, `HERALD_SITE_DESCRIPTION`,
/// `HERALD_LANGUAGE` (or `--site-name`, `--site-description`, `--language`).
public struct SiteIdentity: Sendable, Equatable {
    public var name = "Herald"
    public var description = "Independent news, written for readers. No tracking."
    /// A BCP 47 language tag (`en`, `fr-CA`, `zh-Hant`).
    public var language = "en"

    public init() {}

    /// Checks and sets the three values; a message saying what is wrong otherwise.
    static func checkedName(_ text: String) throws(UsageError) -> String {
        let name = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard (1...80).contains(name.count), !name.unicodeScalars.contains(where: { $0.value < 0x20 }) else {
            throw UsageError(description: "the site name must be 1 to 80 characters on one line")
        }
        return name
    }

    static func checkedDescription(_ text: String) throws(UsageError) -> String {
        let description = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        guard description.count <= 300 else {
            throw UsageError(description: "the site description must be at most 300 characters")
        }
        return description
    }

    static func checkedLanguage(_ text: String) throws(UsageError) -> String {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false)
        guard (1...35).contains(text.utf8.count), let first = parts.first, (2...8).contains(first.utf8.count),
            first.utf8.allSatisfy({ ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }),
            parts.dropFirst().allSatisfy({ part in
                (1...8).contains(part.utf8.count)
                    && part.utf8.allSatisfy {
                        ($0 >= 0x30 && $0 <= 0x39) || (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A)
                    }
            })
        else {
            throw UsageError(description: "the language must be a language tag such as en, fr-CA or zh-Hant")
        }
        return text
    }
}
