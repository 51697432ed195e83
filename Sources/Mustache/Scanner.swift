/// One lexical piece of a template: a run of text or one tag.
///
/// Text is cut after every newline so that a later pass can reason about lines (standalone tags,
/// indentation) by looking only at neighbouring tokens.
struct Token {
    enum Kind: Equatable {
        case text
        case variable
        case rawVariable
        case section
        case invertedSection
        case close
        case comment
        case partial
        case parent
        case block
        case delimiters
    }

    let kind: Kind
    /// The whole token in the source, delimiters included.
    let start: Int
    let end: Int
    /// The tag's name with padding removed; empty for text, comments and delimiter changes.
    let name: String
}

/// Splits template source into tokens, following `{{=<% %>=}}` delimiter changes as it goes.
struct Scanner {
    private let source: [UInt8]
    private let lines: LineTable
    private var open: [UInt8] = Array("{{".utf8)
    private var close: [UInt8] = Array("}}".utf8)
    private var tokens: [Token] = []

    init(source: [UInt8], lines: LineTable) {
        self.source = source
        self.lines = lines
    }

    mutating func scan() throws(TemplateError) -> [Token] {
        var position = 0
        while position < source.count {
            let tagStart = find(open, from: position) ?? source.count
            appendText(from: position, to: tagStart)
            if tagStart == source.count { break }
            position = try scanTag(at: tagStart)
        }
        return tokens
    }

    private mutating func appendText(from start: Int, to end: Int) {
        var lineStart = start
        var index = start
        while index < end {
            if source[index] == UInt8(ascii: "\n") {
                tokens.append(Token(kind: .text, start: lineStart, end: index + 1, name: ""))
                lineStart = index + 1
            }
            index += 1
        }
        if lineStart < end {
            tokens.append(Token(kind: .text, start: lineStart, end: end, name: ""))
        }
    }

    /// Returns the position just after the tag.
    private mutating func scanTag(at tagStart: Int) throws(TemplateError) -> Int {
        let afterOpen = tagStart + open.count
        guard afterOpen < source.count else { throw lines.error(.unclosedTag, at: tagStart) }
        let sigil = source[afterOpen]

        // Triple mustache and delimiter changes end with a character of their own before the
        // closing delimiter, so the closing sequence to look for is longer.
        let kind: Token.Kind
        var contentStart = afterOpen + 1
        var terminator = close
        switch sigil {
        case UInt8(ascii: "{"):
            kind = .rawVariable
            terminator = [UInt8(ascii: "}")] + close
        case UInt8(ascii: "&"): kind = .rawVariable
        case UInt8(ascii: "#"): kind = .section
        case UInt8(ascii: "^"): kind = .invertedSection
        case UInt8(ascii: "/"): kind = .close
        case UInt8(ascii: "!"): kind = .comment
        case UInt8(ascii: ">"): kind = .partial
        case UInt8(ascii: "<"): kind = .parent
        case UInt8(ascii: "$"): kind = .block
        case UInt8(ascii: "="):
            kind = .delimiters
            terminator = [UInt8(ascii: "=")] + close
        default:
            kind = .variable
            contentStart = afterOpen
        }

        guard let contentEnd = find(terminator, from: contentStart) else {
            throw lines.error(.unclosedTag, at: tagStart)
        }
        let tagEnd = contentEnd + terminator.count
        let content = trimmed(contentStart, contentEnd)

        switch kind {
        case .comment:
            tokens.append(Token(kind: .comment, start: tagStart, end: tagEnd, name: ""))
        case .delimiters:
            try changeDelimiters(content, tagStart: tagStart)
            tokens.append(Token(kind: .delimiters, start: tagStart, end: tagEnd, name: ""))
        default:
            let name = try validName(content, tagStart: tagStart)
            tokens.append(Token(kind: kind, start: tagStart, end: tagEnd, name: name))
        }
        return tagEnd
    }

    private func validName(_ range: Range<Int>, tagStart: Int) throws(TemplateError) -> String {
        let bytes = source[range]
        // A missing closing delimiter makes the search run on to the next tag's; the open
        // delimiter or a line break inside the name is the telltale, and the useful position
        // to report is this tag's start, not the name.
        if bytes.contains(UInt8(ascii: "\n")) || find(open, in: range) != nil {
            throw lines.error(.unclosedTag, at: tagStart)
        }
        let name = String(decoding: bytes, as: UTF8.self)
        if bytes.isEmpty || bytes.contains(where: isWhitespace) {
            throw lines.error(.invalidTagName(name), at: tagStart)
        }
        return name
    }

    private mutating func changeDelimiters(_ range: Range<Int>, tagStart: Int) throws(TemplateError) {
        let parts = source[range].split(whereSeparator: isWhitespace)
        guard parts.count == 2,
            !parts[0].contains(UInt8(ascii: "=")), !parts[1].contains(UInt8(ascii: "="))
        else { throw lines.error(.badDelimiters, at: tagStart) }
        open = Array(parts[0])
        close = Array(parts[1])
    }

    private func trimmed(_ start: Int, _ end: Int) -> Range<Int> {
        var start = start
        var end = end
        while start < end, isPadding(source[start]) { start += 1 }
        while end > start, isPadding(source[end - 1]) { end -= 1 }
        return start..<end
    }

    private func find(_ needle: [UInt8], from start: Int) -> Int? {
        find(needle, in: start..<source.count)
    }

    private func find(_ needle: [UInt8], in range: Range<Int>) -> Int? {
        guard let first = needle.first, range.count >= needle.count else { return nil }
        var index = range.lowerBound
        let last = range.upperBound - needle.count
        while index <= last {
            if source[index] == first {
                var matched = 1
                while matched < needle.count, source[index + matched] == needle[matched] {
                    matched += 1
                }
                if matched == needle.count { return index }
            }
            index += 1
        }
        return nil
    }
}

@inline(__always)
func isWhitespace(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
}

/// Padding inside a tag may span lines (`{{!` comments, tags split for readability).
@inline(__always)
private func isPadding(_ byte: UInt8) -> Bool {
    isWhitespace(byte) || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r")
}

/// Maps byte offsets to 1-based line and column, for error messages and render-time locations.
struct LineTable {
    let path: String
    private let source: [UInt8]
    private let lineStarts: [Int]

    init(source: [UInt8], path: String) {
        self.path = path
        self.source = source
        var starts = [0]
        for (offset, byte) in source.enumerated() where byte == UInt8(ascii: "\n") {
            starts.append(offset + 1)
        }
        lineStarts = starts
    }

    func location(of offset: Int) -> SourceLocation {
        var low = 0
        var high = lineStarts.count - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if lineStarts[middle] <= offset { low = middle } else { high = middle - 1 }
        }
        // Columns count characters as editors do, not bytes: skip UTF-8 continuation bytes.
        let column = source[lineStarts[low]..<min(offset, source.count)].reduce(1) { count, byte in
            byte & 0xC0 == 0x80 ? count : count + 1
        }
        return SourceLocation(path: path, line: low + 1, column: column)
    }

    func error(_ kind: TemplateError.Kind, at offset: Int) -> TemplateError {
        location(of: offset).error(kind)
    }
}
