/// The XML declaration that may open a document: `<?xml version="1.0" encoding="…" standalone="…"?>`.
///
/// libxml2 switches its decoder the moment it reads `encoding`, even in a declaration it then finds
/// malformed. So the declaration is read strictly here — one Herald cannot read is refused, not left
/// for libxml2 to interpret — and written back naming UTF-8 once `FeedEncoding` has transcoded.
enum XMLDeclaration {
    struct Parsed {
        /// Where the declaration is, `<?xml` to `?>` inclusive.
        var range: Range<Int>
        var version: String
        var encoding: String?
        var standalone: String?
        /// Line ends inside it, kept when it is rewritten so that error messages' line numbers still hold.
        var lineEnds: Int
    }

    /// The declared encoding's name; nil when there is no declaration or it names no encoding.
    static func encodingName(in bytes: ArraySlice<UInt8>) throws(FeedIssue) -> String? {
        try parse(bytes)?.encoding
    }

    /// Replaces the declaration, if there is one, by the same declaration naming UTF-8, after checking
    /// that the encoding it named is one Herald reads (a UTF-16 file's declaration is first read here).
    static func rewriteNamingUTF8(_ text: inout [UInt8]) throws(FeedIssue) {
        guard let declaration = try parse(text[...]) else { return }
        if let encoding = declaration.encoding { _ = try FeedEncoding.named(encoding) }
        var rewritten = "<?xml version=\"\(declaration.version)\" encoding=\"UTF-8\""
        if let standalone = declaration.standalone { rewritten += " standalone=\"\(standalone)\"" }
        rewritten += String(repeating: "\n", count: declaration.lineEnds) + "?>"
        text.replaceSubrange(declaration.range, with: Array(rewritten.utf8))
    }

    /// nil when the bytes do not open with a declaration: `<?xml` and a space at the very first byte,
    /// which is also the only place libxml2 looks (`<?xml-stylesheet` is a processing instruction).
    static func parse(_ bytes: ArraySlice<UInt8>) throws(FeedIssue) -> Parsed? {
        let start = bytes.startIndex
        guard bytes.starts(with: "<?xml".utf8), bytes.count > 5, isSpace(bytes[start + 5]) else { return nil }
        guard let close = bytes[(start + 5)...].firstRange(of: Array("?>".utf8)) else {
            throw malformed("it is not closed by ?>")
        }
        var position = start + 5
        let end = close.lowerBound
        var attributes: [(name: String, value: String)] = []
        var lineEnds = 0
        while true {
            let spaceStart = position
            while position < end, isSpace(bytes[position]) {
                if bytes[position] == 0x0A || (bytes[position] == 0x0D && bytes[position + 1] != 0x0A) { lineEnds += 1 }
                position += 1
            }
            if position == end { break }
            guard position > spaceStart else { throw malformed("its attributes are not separated by spaces") }
            let nameStart = position
            while position < end, isLetter(bytes[position]) { position += 1 }
            guard position > nameStart else { throw malformed("version, encoding or standalone expected") }
            let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
            while position < end, isSpace(bytes[position]) { position += 1 }
            guard position < end, bytes[position] == UInt8(ascii: "=") else {
                throw malformed("“\(name)” has no value")
            }
            position += 1
            while position < end, isSpace(bytes[position]) { position += 1 }
            guard position < end, bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") else {
                throw malformed("the value of “\(name)” is not quoted")
            }
            let quote = bytes[position]
            position += 1
            let valueStart = position
            while position < end, isValueByte(bytes[position]) { position += 1 }
            guard position < end, bytes[position] == quote else {
                throw malformed("the value of “\(name)” holds a character no version or encoding name has")
            }
            attributes.append((name, String(decoding: bytes[valueStart..<position], as: UTF8.self)))
            position += 1
        }
        return try parsed(attributes, range: start..<close.upperBound, lineEnds: lineEnds)
    }

    /// XML 1.0 §2.8: `version`, then optionally `encoding`, then optionally `standalone`, in that order.
    private static func parsed(_ attributes: [(name: String, value: String)], range: Range<Int>, lineEnds: Int)
        throws(FeedIssue) -> Parsed
    {
        var rest = attributes[...]
        guard let version = rest.popFirst(), version.name == "version" else { throw malformed("it has no version") }
        let digits = version.value.utf8.dropFirst(2)
        guard version.value.hasPrefix("1."), !digits.isEmpty, digits.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw malformed("version “\(version.value)” is not 1.x")
        }
        var declaration = Parsed(range: range, version: version.value, lineEnds: lineEnds)
        if rest.first?.name == "encoding" { declaration.encoding = rest.popFirst()?.value }
        if rest.first?.name == "standalone" {
            let standalone = rest.popFirst()?.value
            guard standalone == "yes" || standalone == "no" else { throw malformed("standalone is neither yes nor no") }
            declaration.standalone = standalone
        }
        if let unexpected = rest.first { throw malformed("“\(unexpected.name)” is unexpected there") }
        return declaration
    }

    private static func malformed(_ detail: String) -> FeedIssue {
        FeedIssue("malformed XML declaration (<?xml …?>): \(detail.prefix(80))")
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    /// What a version number or an encoding name may hold (XML 1.0 productions VersionNum and EncName).
    private static func isValueByte(_ byte: UInt8) -> Bool {
        isLetter(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_")
            || byte == UInt8(ascii: "-")
    }
}
