/// A BCP 47 language tag as Herald keeps it for an article's content (`en`, `zh-Hant`, `zh-TW`,
/// `fr-CA`): from a feed's `language`, `xml:lang` or JSON Feed's `language`, or typed by an editor.
/// The same rule as `HERALD_LANGUAGE`'s: letters, digits and hyphens, a 2–8 letter language first.
enum LanguageTag {
    /// The tag, trimmed; nil when it is not one (a feed's odd value is dropped, never an error).
    static func validated(_ text: String?) -> String? {
        guard let text else { return nil }
        let trimmed = text.trimmingCharacters(in: " \t\r\n")
        guard !trimmed.isEmpty, (try? SiteIdentity.checkedLanguage(trimmed)) != nil else { return nil }
        return trimmed
    }
}

extension String {
    fileprivate func trimmingCharacters(in set: String) -> String {
        var text = Substring(self)
        while let first = text.first, set.contains(first) { text = text.dropFirst() }
        while let last = text.last, set.contains(last) { text = text.dropLast() }
        return String(text)
    }
}
