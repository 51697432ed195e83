import Foundation

/// The rules for a comment's text (SPEC, "HTML a test can rely on").
enum CommentText {
    static let maximumLength = 2000

    /// CRLF (and lone CR) become LF, surrounding whitespace goes, and invisible control
    /// characters (other than line breaks and tabs) and bidirectional overrides, which can make a
    /// comment display differently from what it says, are removed.
    static func normalized(_ text: String) -> String {
        let unified = text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
        var kept = String.UnicodeScalarView()
        for scalar in unified.unicodeScalars where !isInvisibleControl(scalar) { kept.append(scalar) }
        return String(kept).trimmingCharacters(in: .whitespacesAndNewlines)
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

    /// The first words, for "Log in to post your comment: “First words…”".
    static func preview(_ text: String, limit: Int = 60) -> String {
        let normalized = normalized(text).split(whereSeparator: \.isNewline).joined(separator: " ")
        guard normalized.count > limit else { return normalized }
        let cut = normalized.prefix(limit)
        let atWord = cut.lastIndex(of: " ").map { cut[..<$0] } ?? cut
        return String(atWord) + "…"
    }
}
