import TextSupport

/// Turns the HTML and text that feeds carry into Herald's plain-text body format:
/// paragraphs of single-spaced text separated by exactly one blank line ("\n\n").
///
/// The output is never HTML. The site escapes it when rendering, so nothing a feed sends can
/// become markup on our pages: `&lt;script&gt;` in a feed ends up as the literal text `<script>`.
/// This is a tolerant scanner, not an HTML parser; it only needs to know where tags, comments
/// and entities are, which elements break paragraphs, and which elements hide their content.
enum HTMLText {
    /// Plain paragraphs from an HTML fragment. Never fails, and never leaks markup as text: an
    /// unterminated tag, comment or hidden element drops the rest of the input instead.
    static func plainParagraphs(fromHTML html: String) -> String {
        var scanner = Scanner(bytes: Array(html.utf8))
        return scanner.run()
    }

    /// Decodes character references (`&amp;`, `&#233;`, `&#xE9;`) and nothing else; tags stay as text.
    /// Unknown named references are kept literally, as browsers do.
    static func decodeEntities(_ text: String) -> String {
        let bytes = Array(text.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == ascii("&"), let (scalar, end) = characterReference(in: bytes, at: index) {
                UTF8.encode(scalar) { output.append($0) }
                index = end
            } else {
                output.append(bytes[index])
                index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Plain text (JSON Feed `content_text`, Atom `type="text"`) in the same shape as converted HTML:
    /// line endings normalized, blank lines (any number) become one paragraph break, and the lines of a
    /// paragraph are joined with single spaces (feeds hard-wrap text; the page re-wraps it anyway).
    static func normalizePlainText(_ text: String) -> String {
        var paragraphs: [String] = []
        var lines: [Substring] = []
        // Splitting on Character.isNewline treats "\r\n" (one Character), "\r" and "\n" alike.
        for line in text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
            if line.allSatisfy(\.isWhitespace) {
                flush(&lines, into: &paragraphs)
            } else {
                lines.append(line)
            }
        }
        flush(&lines, into: &paragraphs)
        return paragraphs.joined(separator: "\n\n")
    }

    /// Everything on one line: for titles, summaries and names, where paragraph breaks have no place.
    static func singleLine(_ text: String) -> String {
        collapseWhitespace(text)
    }

    private static func flush(_ lines: inout [Substring], into paragraphs: inout [String]) {
        guard !lines.isEmpty else { return }
        let paragraph = collapseWhitespace(lines.joined(separator: " "))
        if !paragraph.isEmpty { paragraphs.append(paragraph) }
        lines.removeAll()
    }

    /// Runs of whitespace become one space, the ends are trimmed, and control characters are dropped
    /// (feeds do contain stray C0/C1 controls and byte-order marks; they have no business in an article).
    /// Works on scalars into a byte buffer: iterating and appending Characters is ten times slower.
    static func collapseWhitespace<S: StringProtocol>(_ text: S) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(text.utf8.count)
        var pendingSpace = false
        for scalar in text.unicodeScalars {
            let value = scalar.value
            let isWhitespace =
                value < 0x80 ? value == 0x20 || (0x09...0x0D).contains(value) : scalar.properties.isWhitespace
            if isWhitespace {
                pendingSpace = !output.isEmpty
                continue
            }
            if value < 0x20 || (0x7F...0x9F).contains(value) || value == 0xFEFF { continue }
            if pendingSpace {
                output.append(0x20)
                pendingSpace = false
            }
            if value < 0x80 {
                output.append(UInt8(value))
            } else {
                UTF8.encode(scalar) { output.append($0) }
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}

// MARK: - Markup scanning

extension HTMLText {
    /// Elements that end one paragraph and start another, whether opened or closed.
    /// `br` is here too: feeds use `<br><br>` as a paragraph separator far more than as a line break.
    private static let paragraphElements: Set<String> = [
        "p", "br", "div", "li", "ul", "ol", "dl", "dt", "dd", "blockquote", "pre", "hr",
        "h1", "h2", "h3", "h4", "h5", "h6", "table", "tr", "section", "article", "header", "footer",
        "aside", "nav", "main", "figure", "figcaption", "address", "details", "summary",
    ]

    /// Elements whose content is not text for a reader (code, embeds, media fallbacks): dropped whole.
    private static let hiddenElements: Set<String> = [
        "script", "style", "iframe", "object", "noscript", "template", "svg", "math", "head",
        "video", "audio", "canvas",
    ]

    /// Raw-text elements: their content is not markup, so the first matching end tag closes them
    /// (`<script>if (a < b) "</div>"</script>` must not be scanned for tags).
    private static let rawTextElements: Set<String> = ["script", "style"]

    /// Cells keep their words apart without starting a paragraph.
    private static let spacedElements: Set<String> = ["td", "th"]

    private struct Tag {
        var name: String
        var isClosing: Bool
        var isSelfClosing: Bool
        /// Index just past the closing `>`.
        var end: Int
    }

    private enum Markup {
        case tag(Tag)
        /// A comment, doctype or processing instruction, skipped up to `end`.
        case ignored(end: Int)
        case cdata(text: Range<Int>, end: Int)
        /// A `<` that does not start markup ("1 < 2"): it is text.
        case notMarkup
        /// Markup that never ends: the rest of the input is dropped.
        case unterminated
    }

    private struct Scanner {
        let bytes: [UInt8]
        var index = 0
        var paragraphs: [String] = []
        var current: [UInt8] = []

        mutating func run() -> String {
            while index < bytes.count {
                switch bytes[index] {
                case ascii("<"):
                    handleMarkup()
                case ascii("&"):
                    if let (scalar, end) = HTMLText.characterReference(in: bytes, at: index) {
                        UTF8.encode(scalar) { current.append($0) }
                        index = end
                    } else {
                        current.append(ascii("&"))
                        index += 1
                    }
                default:
                    current.append(bytes[index])
                    index += 1
                }
            }
            breakParagraph()
            return paragraphs.joined(separator: "\n\n")
        }

        private mutating func handleMarkup() {
            switch HTMLText.markup(in: bytes, at: index) {
            case .notMarkup:
                current.append(ascii("<"))
                index += 1
            case .unterminated:
                index = bytes.count
            case .ignored(let end):
                index = end
            case .cdata(let text, let end):
                current.append(contentsOf: bytes[text])
                index = end
            case .tag(let tag):
                index = tag.end
                apply(tag)
            }
        }

        private mutating func apply(_ tag: Tag) {
            if !tag.isClosing && !tag.isSelfClosing && HTMLText.hiddenElements.contains(tag.name) {
                index = HTMLText.endOfHiddenElement(named: tag.name, in: bytes, from: index)
            } else if HTMLText.paragraphElements.contains(tag.name) {
                breakParagraph()
            } else if HTMLText.spacedElements.contains(tag.name) {
                current.append(ascii(" "))
            }
            // Any other tag (a, em, span, img, …) disappears and its text stays where it was.
        }

        private mutating func breakParagraph() {
            guard !current.isEmpty else { return }
            let paragraph = HTMLText.collapseWhitespace(String(decoding: current, as: UTF8.self))
            if !paragraph.isEmpty { paragraphs.append(paragraph) }
            current.removeAll(keepingCapacity: true)
        }
    }

    /// Classifies the markup starting at the `<` at `start`.
    private static func markup(in bytes: [UInt8], at start: Int) -> Markup {
        if hasPrefix("<!--", in: bytes, at: start) {
            guard let close = find("-->", in: bytes, from: start + 4) else { return .unterminated }
            return .ignored(end: close + 3)
        }
        if hasPrefix("<![CDATA[", in: bytes, at: start) {
            guard let close = find("]]>", in: bytes, from: start + 9) else { return .unterminated }
            return .cdata(text: (start + 9)..<close, end: close + 3)
        }
        let next = start + 1 < bytes.count ? bytes[start + 1] : 0
        if next == ascii("!") || next == ascii("?") {
            guard let close = find(">", in: bytes, from: start + 2) else { return .unterminated }
            return .ignored(end: close + 1)
        }
        var position = start + 1
        let isClosing = next == ascii("/")
        if isClosing { position += 1 }
        guard position < bytes.count, isASCIILetter(bytes[position]) else { return .notMarkup }
        let nameStart = position
        while position < bytes.count, isNameByte(bytes[position]) { position += 1 }
        let name = String(decoding: bytes[nameStart..<position], as: UTF8.self).lowercased()
        guard let close = endOfTag(in: bytes, from: position) else { return .unterminated }
        let isSelfClosing = close > position && bytes[close - 1] == ascii("/")
        return .tag(Tag(name: name, isClosing: isClosing, isSelfClosing: isSelfClosing, end: close + 1))
    }

    /// The `>` ending a tag whose attributes start at `start`. A quote only opens a value right after `=`,
    /// so a stray apostrophe (`<p class=it's>`) cannot swallow the rest of the document.
    private static func endOfTag(in bytes: [UInt8], from start: Int) -> Int? {
        var quote: UInt8?
        var afterEquals = false
        var position = start
        while position < bytes.count {
            let byte = bytes[position]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == ascii(">") {
                return position
            } else if byte == ascii("=") {
                afterEquals = true
            } else if afterEquals && (byte == ascii("\"") || byte == ascii("'")) {
                quote = byte
                afterEquals = false
            } else if !isASCIISpace(byte) {
                afterEquals = false
            }
            position += 1
        }
        return nil
    }

    /// Where a hidden element opened just before `start` ends (just past its end tag), or the end of input.
    /// Nested elements of the same name are counted. Unterminated markup inside ends the scan, which keeps
    /// this linear: no byte is scanned twice for the same tag.
    private static func endOfHiddenElement(named name: String, in bytes: [UInt8], from start: Int) -> Int {
        if rawTextElements.contains(name) { return endOfRawText(named: name, in: bytes, from: start) }
        var depth = 1
        var position = start
        while let open = find("<", in: bytes, from: position) {
            switch markup(in: bytes, at: open) {
            case .tag(let tag) where tag.name == name:
                if tag.isClosing {
                    depth -= 1
                } else if !tag.isSelfClosing {
                    depth += 1
                }
                if depth == 0 { return tag.end }
                position = tag.end
            case .tag(let tag):
                position = tag.end
            case .ignored(let end), .cdata(_, let end):
                position = end
            case .notMarkup:
                position = open + 1
            case .unterminated:
                return bytes.count
            }
        }
        return bytes.count
    }

    /// Raw-text elements (`script`, `style`) end at the first `</name` followed by a non-name byte;
    /// nothing inside them is markup.
    private static func endOfRawText(named name: String, in bytes: [UInt8], from start: Int) -> Int {
        let nameBytes = Array(name.utf8)
        var position = start
        while let open = find("</", in: bytes, from: position) {
            let nameStart = open + 2
            let nameEnd = nameStart + nameBytes.count
            let matches =
                nameEnd <= bytes.count
                && (0..<nameBytes.count).allSatisfy { lowercasedASCII(bytes[nameStart + $0]) == nameBytes[$0] }
                && (nameEnd == bytes.count || !isNameByte(bytes[nameEnd]))
            if matches {
                guard let close = find(">", in: bytes, from: nameEnd) else { return bytes.count }
                return close + 1
            }
            position = open + 2
        }
        return bytes.count
    }
}

// MARK: - Character references

extension HTMLText {
    /// Decodes the character reference starting at the `&` at `start`: the scalar and the index after it,
    /// or nil if this `&` is just an ampersand. Named references need their `;` (so "AT&T;" style text
    /// survives); numeric ones may omit it, as HTML allows. Search snippets read rendered bodies with it too.
    static func characterReference(in bytes: [UInt8], at start: Int) -> (Unicode.Scalar, Int)? {
        var position = start + 1
        guard position < bytes.count else { return nil }
        if bytes[position] == ascii("#") {
            position += 1
            let isHex = position < bytes.count && (bytes[position] == ascii("x") || bytes[position] == ascii("X"))
            if isHex { position += 1 }
            let digitsStart = position
            var value: UInt32 = 0
            var tooLarge = false
            while position < bytes.count, let digit = digitValue(bytes[position], hex: isHex) {
                let next = UInt64(value) * (isHex ? 16 : 10) + UInt64(digit)
                if next > 0x10FFFF { tooLarge = true } else { value = UInt32(next) }
                position += 1
            }
            guard position > digitsStart else { return nil }
            if position < bytes.count && bytes[position] == ascii(";") { position += 1 }
            return (tooLarge ? replacementCharacter : scalar(forCodePoint: value), position)
        }
        let nameStart = position
        while position < bytes.count, position - nameStart < 32, isASCIILetterOrDigit(bytes[position]) {
            position += 1
        }
        guard position > nameStart, position < bytes.count, bytes[position] == ascii(";") else { return nil }
        let name = String(decoding: bytes[nameStart..<position], as: UTF8.self)
        guard let value = namedReferences[name], let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, position + 1)
    }

    private static let replacementCharacter: Unicode.Scalar = "\u{FFFD}"

    /// HTML's rules for numeric references, made safe for plain text: NUL, surrogates and controls become
    /// U+FFFD, and 0x80–0x9F mean what Windows-1252 meant by them (old feeds write `&#146;` for ’).
    private static func scalar(forCodePoint value: UInt32) -> Unicode.Scalar {
        if (0x80...0x9F).contains(value) {
            let mapped = FeedEncoding.windows1252Range80to9F[Int(value - 0x80)]
            return mapped == 0 ? replacementCharacter : Unicode.Scalar(mapped) ?? replacementCharacter
        }
        let isAllowedControl = value == 0x09 || value == 0x0A || value == 0x0C || value == 0x0D
        if (value < 0x20 && !isAllowedControl) || value == 0x7F { return replacementCharacter }
        return Unicode.Scalar(value) ?? replacementCharacter  // nil for surrogates
    }

    /// Latin-1 names in code point order from U+00A0, so the table cannot drift out of step.
    private static let latin1Names = """
        nbsp iexcl cent pound curren yen brvbar sect uml copy ordf laquo not shy reg macr \
        deg plusmn sup2 sup3 acute micro para middot cedil sup1 ordm raquo frac14 frac12 frac34 iquest \
        Agrave Aacute Acirc Atilde Auml Aring AElig Ccedil Egrave Eacute Ecirc Euml Igrave Iacute Icirc Iuml \
        ETH Ntilde Ograve Oacute Ocirc Otilde Ouml times Oslash Ugrave Uacute Ucirc Uuml Yacute THORN szlig \
        agrave aacute acirc atilde auml aring aelig ccedil egrave eacute ecirc euml igrave iacute icirc iuml \
        eth ntilde ograve oacute ocirc otilde ouml divide oslash ugrave uacute ucirc uuml yacute thorn yuml
        """.split(separator: " ")

    /// The named references feeds actually use: XML's five, Latin-1, and common typography.
    static let namedReferences: [String: UInt32] = {
        var table: [String: UInt32] = [
            "amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27,
            "OElig": 0x152, "oelig": 0x153, "Scaron": 0x160, "scaron": 0x161, "Yuml": 0x178, "fnof": 0x192,
            "circ": 0x2C6, "tilde": 0x2DC, "ensp": 0x2002, "emsp": 0x2003, "thinsp": 0x2009,
            "zwnj": 0x200C, "zwj": 0x200D, "lrm": 0x200E, "rlm": 0x200F, "ndash": 0x2013, "mdash": 0x2014,
            "lsquo": 0x2018, "rsquo": 0x2019, "sbquo": 0x201A, "ldquo": 0x201C, "rdquo": 0x201D,
            "bdquo": 0x201E, "dagger": 0x2020, "Dagger": 0x2021, "bull": 0x2022, "hellip": 0x2026,
            "permil": 0x2030, "prime": 0x2032, "Prime": 0x2033, "lsaquo": 0x2039, "rsaquo": 0x203A,
            "euro": 0x20AC, "trade": 0x2122, "larr": 0x2190, "uarr": 0x2191, "rarr": 0x2192,
            "darr": 0x2193, "harr": 0x2194, "minus": 0x2212, "infin": 0x221E, "ne": 0x2260,
            "le": 0x2264, "ge": 0x2265,
        ]
        for (offset, name) in latin1Names.enumerated() {
            table[String(name)] = 0xA0 + UInt32(offset)
        }
        return table
    }()
}

// MARK: - Byte helpers

private func ascii(_ character: Unicode.Scalar) -> UInt8 {
    UInt8(truncatingIfNeeded: character.value)
}

private func isASCIILetter(_ byte: UInt8) -> Bool {
    (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
}

private func lowercasedASCII(_ byte: UInt8) -> UInt8 {
    byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
}

private func isASCIILetterOrDigit(_ byte: UInt8) -> Bool {
    isASCIILetter(byte) || (byte >= 0x30 && byte <= 0x39)
}

/// Tag names: letters, digits and the `-`, `_`, `:` of custom and Word-exported (`o:p`) elements.
private func isNameByte(_ byte: UInt8) -> Bool {
    isASCIILetterOrDigit(byte) || byte == ascii("-") || byte == ascii("_") || byte == ascii(":")
}

private func isASCIISpace(_ byte: UInt8) -> Bool {
    byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
}

/// A decimal digit's value, or a hexadecimal one's when `hex`.
private func digitValue(_ byte: UInt8, hex: Bool) -> UInt32? {
    guard let value = ASCII.hexValue(byte), hex || value < 10 else { return nil }
    return UInt32(value)
}

private func hasPrefix(_ prefix: StaticString, in bytes: [UInt8], at start: Int) -> Bool {
    let count = prefix.utf8CodeUnitCount
    guard start + count <= bytes.count else { return false }
    return prefix.withUTF8Buffer { pattern in
        // Case-insensitive: `<!doctype` and `<![cdata[` are written both ways.
        (0..<count).allSatisfy { lowercasedASCII(bytes[start + $0]) == lowercasedASCII(pattern[$0]) }
    }
}

/// The first index at or after `start` where `needle` begins.
private func find(_ needle: StaticString, in bytes: [UInt8], from start: Int) -> Int? {
    let count = needle.utf8CodeUnitCount
    guard count > 0, start >= 0 else { return nil }
    return needle.withUTF8Buffer { pattern -> Int? in
        var position = start
        while position + count <= bytes.count {
            if bytes[position] == pattern[0] && (1..<count).allSatisfy({ bytes[position + $0] == pattern[$0] }) {
                return position
            }
            position += 1
        }
        return nil
    }
}
