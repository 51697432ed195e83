import TextSupport

/// Where and how an uploaded image goes into an article's Markdown: `![alt](/media/…)` on a line
/// of its own, at the cursor the editor's script sent, else at the end of the text.
enum BodyImageInsertion {
    /// `![alt](path)`: the description on one line, with the characters that would end it early
    /// escaped (`[`, `]`, `\`).
    static func markdown(alt: String, path: String) -> String {
        var escaped = ""
        for character in alt.singleLine {
            if character == "[" || character == "]" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return "![\(escaped)](\(path))"
    }

    /// `body` (its line ends as LF, as a script's textarea counts them) with `image` inserted as a
    /// paragraph of its own at `cursor` — an offset in UTF-16 code units, as
    /// `textarea.selectionStart` gives it — or at the end when there is none, or it is out of the
    /// text, or falls inside a character.
    static func insert(_ image: String, into body: String, at cursor: Int?) -> String {
        let text = Newsroom.normalizedLineEnds(body)
        var index = text.endIndex
        if let cursor, cursor >= 0,
            let position = text.utf16.index(text.utf16.startIndex, offsetBy: cursor, limitedBy: text.utf16.endIndex),
            let boundary = position.samePosition(in: text)
        {
            index = boundary
        }
        let before = text[..<index]
        let after = text[index...]
        // A blank line on each side, unless the text already has one there (or ends there).
        let lead = before.isEmpty || before.hasSuffix("\n\n") ? "" : before.hasSuffix("\n") ? "\n" : "\n\n"
        let trail = after.isEmpty || after.hasPrefix("\n\n") ? "" : after.hasPrefix("\n") ? "\n" : "\n\n"
        return String(before) + lead + image + trail + String(after)
    }
}
