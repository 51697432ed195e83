/// The rules for a comment's text (SPEC, "HTML a test can rely on").
///
/// Written as single passes over Unicode scalars: an anonymous POST reaches these with up to
/// 64 KiB of text, and Foundation's `replacingOccurrences`/`trimmingCharacters` bridge through
/// NSString at several times the cost.
enum CommentText {
    static let maximumLength = 2000

    /// CRLF (and lone CR) become LF, surrounding whitespace goes, and invisible control
    /// characters (other than line breaks and tabs) and bidirectional overrides, which can make a
    /// comment display differently from what it says, are removed.
    static func normalized(_ text: String) -> String {
        var kept = String.UnicodeScalarView()
        var afterCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\r" {
                kept.append("\n")
                afterCR = true
                continue
            }
            defer { afterCR = false }
            if scalar == "\n" && afterCR { continue }
            if !isInvisibleControl(scalar) { kept.append(scalar) }
        }
        guard let first = kept.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = kept.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(kept[first...last])
    }

    private static func isInvisibleControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00..<0x20, 0x7F..<0xA0, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }

    /// Length in Unicode code points, as SPEC counts it.
    static func length(_ normalized: String) -> Int { normalized.unicodeScalars.count }

    /// A reader-facing problem with the text, or nil when it can be posted.
    static func problem(_ normalized: String) -> String? {
        if normalized.isEmpty { return "Your comment is empty. Please write something first." }
        let count = length(normalized)
        if count > maximumLength {
            return "Your comment is \(count) characters long; the limit is \(maximumLength). Please shorten it."
        }
        return nil
    }

    /// The first words, for "Log in to post your comment: “First words…”". Looks at the start of
    /// the text only, however long it is.
    static func preview(_ text: String, limit: Int = 60) -> String {
        let start = String(String.UnicodeScalarView(text.unicodeScalars.prefix(limit * 8)))
        let normalized = normalized(start).split(whereSeparator: \.isNewline).joined(separator: " ")
        guard normalized.count > limit else { return normalized }
        let cut = normalized.prefix(limit)
        let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return String(atWord) + "…"
    }
}
