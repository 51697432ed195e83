import TextSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A `multipart/form-data` body (RFC 7578): text fields and uploaded files.
///
/// Parsed in one forward pass over the bytes: every search starts where the last one ended and
/// compares at most the delimiter's length at each candidate, so the work is linear in the body.
/// Anything malformed or past a limit is a 400 (a text field that is too long, 413) with a
/// message that says what is wrong; nothing here can crash on hostile input.
///
/// What a browser sends is taken as it sends it: `name` and `filename` run to the next `"`
/// (browsers write a `"` inside them as `%22`, and never escape a backslash), and the
/// filename is whatever the client declared — never trust it for the file's type.
public struct MultipartForm: Sendable {
    /// An uploaded file part: a part whose `Content-Disposition` has a `filename`.
    public struct File: Sendable, Equatable {
        /// The form field's name (`image`).
        public var name: String
        /// The filename the client declared; may be empty, may say anything.
        public var filename: String
        /// The `Content-Type` the client declared, if any; may say anything.
        public var contentType: String?
        public var bytes: [UInt8]

        public init(name: String, filename: String, contentType: String? = nil, bytes: [UInt8]) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.bytes = bytes
        }
    }

    /// What one body may hold. The body's total size is the server's (or the route's) body limit.
    public struct Limits: Sendable {
        /// Parts of any kind.
        public var maxParts = 20
        /// The header block of one part, up to its blank line.
        public var maxHeaderBytes = 8 * 1024
        /// A field's `name`, in UTF-8 bytes (a `filename` may be as long as its header block allows).
        public var maxNameBytes = 200
        /// One text field's value, in UTF-8 bytes: room for the longest text any form takes
        /// (an article of 100,000 characters, up to 4 bytes each).
        public var maxTextFieldBytes = 512 * 1024

        public init() {}
    }

    /// The text fields, in order, as a urlencoded body would give them.
    public private(set) var fields = URLEncodedForm()
    /// The file parts, in order. A file input left empty (`filename=""` and no content, which
    /// browsers send for "no file chosen") is left out.
    public private(set) var files: [File] = []

    public init() {}

    /// The first file sent under `name`, or nil.
    public func file(_ name: String) -> File? {
        files.first { $0.name == name }
    }

    /// Parses `body`, delimited by `boundary` (from the request's `Content-Type`).
    public init(parsing body: [UInt8], boundary: String, limits: Limits = Limits()) throws(HTTPError) {
        try Self.validateBoundary(boundary)
        let result: Result<MultipartForm, HTTPError> = body.withUnsafeBufferPointer { bytes in
            let parser = Parser(bytes: bytes, boundary: Array(boundary.utf8), limits: limits)
            do throws(HTTPError) { return .success(try parser.parse()) } catch { return .failure(error) }
        }
        self = try result.get()
    }

    /// The `boundary` parameter of a `multipart/form-data` content type, checked (RFC 2046: 1–70
    /// characters from a small set, not ending in a space).
    public static func boundary(fromContentType contentType: String) throws(HTTPError) -> String {
        let parameters = contentType.split(separator: ";").dropFirst()
        for parameter in parameters {
            let pair = parameter.split(separator: "=", maxSplits: 1)
            guard pair.count == 2,
                asciiCaseInsensitiveEquals(String(pair[0].trimmingASCIIWhitespace()), "boundary")
            else { continue }
            var value = Substring(pair[1].trimmingASCIIWhitespace())
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = value.dropFirst().dropLast()
            }
            let boundary = String(value)
            try validateBoundary(boundary)
            return boundary
        }
        throw HTTPError(.badRequest, "The multipart/form-data content type has no boundary.")
    }

    static func validateBoundary(_ boundary: String) throws(HTTPError) {
        let bytes = Array(boundary.utf8)
        guard (1...70).contains(bytes.count) else {
            throw HTTPError(.badRequest, "The multipart boundary must be 1 to 70 characters long.")
        }
        guard bytes.allSatisfy(isBoundaryByte), bytes.last != UInt8(ascii: " ") else {
            throw HTTPError(.badRequest, "The multipart boundary contains characters it may not contain.")
        }
    }

    /// RFC 2046 `bchars`: digits, letters and `'()+_,-./:=? ` (space).
    private static func isBoundaryByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
            UInt8(ascii: "A")...UInt8(ascii: "Z"):
            return true
        default:
            return Array("'()+_,-./:=? ".utf8).contains(byte)
        }
    }

    fileprivate mutating func append(_ part: Part, limits: Limits) throws(HTTPError) {
        if let filename = part.filename {
            if filename.isEmpty && part.content.isEmpty { return }
            files.append(File(name: part.name, filename: filename, contentType: part.contentType, bytes: part.content))
        } else {
            guard part.content.count <= limits.maxTextFieldBytes else {
                throw HTTPError(
                    .payloadTooLarge,
                    "The form field “\(part.name)” is longer than \(limits.maxTextFieldBytes) bytes.")
            }
            guard let value = String(validating: part.content, as: UTF8.self) else {
                throw HTTPError(.badRequest, "The form field “\(part.name)” is not valid UTF-8 text.")
            }
            fields.append(part.name, value)
        }
    }
}

/// One part, its headers read.
private struct Part {
    var name: String
    var filename: String?
    var contentType: String?
    var content: [UInt8]
}

/// The parse itself, over the body's bytes.
private struct Parser {
    let bytes: UnsafeBufferPointer<UInt8>
    /// `\r\n--boundary`: every delimiter but a first one at the very start is preceded by CRLF.
    let delimiter: [UInt8]
    let limits: MultipartForm.Limits

    init(bytes: UnsafeBufferPointer<UInt8>, boundary: [UInt8], limits: MultipartForm.Limits) {
        self.bytes = bytes
        self.delimiter = [13, 10, 45, 45] + boundary
        self.limits = limits
    }

    func parse() throws(HTTPError) -> MultipartForm {
        var form = MultipartForm()
        // The first delimiter may open the body (no CRLF before it) or follow a preamble.
        let dashBoundary = delimiter.count - 2
        var position: Int
        if startsDelimiter(at: 0, length: dashBoundary) && endsDelimiterLine(at: dashBoundary) {
            position = dashBoundary
        } else if let found = nextDelimiter(from: 0) {
            position = found + delimiter.count
        } else {
            throw HTTPError(.badRequest, "The multipart body does not contain its boundary.")
        }
        var parts = 0
        while true {
            // After a delimiter: `--` closes the body (an epilogue may follow and is ignored),
            // else optional spaces or tabs and a CRLF open the next part.
            if has([45, 45], at: position) { return form }
            position = try endOfDelimiterLine(from: position)
            parts += 1
            guard parts <= limits.maxParts else {
                throw HTTPError(.badRequest, "The form has more than \(limits.maxParts) parts.")
            }
            let contentStart = try endOfHeaders(from: position)
            // The header lines, each with its CRLF, without the blank line.
            var part = try readHeaders(UnsafeBufferPointer(rebasing: bytes[position..<contentStart - 2]))
            guard let end = nextDelimiter(from: contentStart) else {
                throw HTTPError(.badRequest, "The multipart body ends before its closing boundary.")
            }
            part.content = Array(bytes[contentStart..<end])
            try form.append(part, limits: limits)
            position = end + delimiter.count
        }
    }

    /// Whether the delimiter without its leading CRLF (`--boundary`) starts at `index`.
    private func startsDelimiter(at index: Int, length: Int) -> Bool {
        guard let base = bytes.baseAddress, index + length <= bytes.count else { return false }
        return delimiter.withUnsafeBufferPointer { needle in
            memcmp(base + index, needle.baseAddress! + 2, length) == 0
        }
    }

    private func has(_ literal: [UInt8], at index: Int) -> Bool {
        guard index + literal.count <= bytes.count else { return false }
        for offset in 0..<literal.count where bytes[index + offset] != literal[offset] { return false }
        return true
    }

    /// The next `\r\n--boundary` at or after `start` that ends a delimiter line (is followed by
    /// `--`, or by optional whitespace and CRLF); one followed by anything else is content.
    private func nextDelimiter(from start: Int) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        return delimiter.withUnsafeBufferPointer { needle -> Int? in
            let last = bytes.count - needle.count
            var index = start
            while index <= last {
                guard let hit = memchr(base + index, 13, last - index + 1) else { return nil }
                let position = UnsafeRawPointer(base).distance(to: UnsafeRawPointer(hit))
                if memcmp(base + position, needle.baseAddress!, needle.count) == 0
                    && endsDelimiterLine(at: position + needle.count)
                {
                    return position
                }
                index = position + 1
            }
            return nil
        }
    }

    /// Whether what follows a boundary makes it a delimiter: `--`, or whitespace then CRLF. The
    /// look-ahead over whitespace is bounded so a run of spaces cannot make the search quadratic.
    private func endsDelimiterLine(at index: Int) -> Bool {
        if has([45, 45], at: index) { return true }
        var index = index
        var padding = 0
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9, padding < 64 {
            index += 1
            padding += 1
        }
        return has([13, 10], at: index)
    }

    /// Skips a delimiter line's transport padding and CRLF; the index after it.
    private func endOfDelimiterLine(from index: Int) throws(HTTPError) -> Int {
        var index = index
        var padding = 0
        while index < bytes.count, bytes[index] == 32 || bytes[index] == 9, padding < 64 {
            index += 1
            padding += 1
        }
        guard has([13, 10], at: index) else {
            throw HTTPError(.badRequest, "A multipart boundary line is malformed.")
        }
        return index + 2
    }

    /// Finds the blank line ending a part's headers, looking no further than the header limit.
    private func endOfHeaders(from start: Int) throws(HTTPError) -> Int {
        // No headers at all: the blank line comes at once.
        if has([13, 10], at: start) { return start + 2 }
        let limit = min(bytes.count, start + limits.maxHeaderBytes + 4)
        var index = start
        while index + 4 <= limit {
            if bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
                return index + 4
            }
            index += 1
        }
        if limit < bytes.count {
            throw HTTPError(
                .badRequest, "A part's headers are longer than \(limits.maxHeaderBytes / 1024) KB.")
        }
        throw HTTPError(.badRequest, "The multipart body ends inside a part's headers.")
    }

    /// Reads `Content-Disposition` and `Content-Type` from a header block (lines separated by CRLF,
    /// without the blank line). Every other header is ignored, except a transfer encoding other
    /// than the identity ones, which RFC 7578 retired and which we refuse rather than misread.
    private func readHeaders(_ block: UnsafeBufferPointer<UInt8>) throws(HTTPError) -> Part {
        var disposition: String?
        var contentType: String?
        var lineStart = 0
        while lineStart < block.count {
            var lineEnd = lineStart
            while lineEnd < block.count
                && !(block[lineEnd] == 13 && lineEnd + 1 < block.count && block[lineEnd + 1] == 10)
            {
                lineEnd += 1
            }
            let line = UnsafeBufferPointer(rebasing: block[lineStart..<lineEnd])
            lineStart = lineEnd + 2
            guard let first = line.first, first != 32, first != 9 else {
                throw HTTPError(.badRequest, "A part's headers are malformed (empty or folded line).")
            }
            guard let colon = line.firstIndex(of: UInt8(ascii: ":")),
                let name = String(validating: line[0..<colon], as: UTF8.self),
                let value = String(validating: line[(colon + 1)...], as: UTF8.self)
            else {
                throw HTTPError(.badRequest, "A part's header is malformed or not valid UTF-8.")
            }
            let trimmed = String(Substring(value).trimmingASCIIWhitespace())
            if asciiCaseInsensitiveEquals(name, "Content-Disposition") {
                guard disposition == nil else {
                    throw HTTPError(.badRequest, "A part has more than one Content-Disposition header.")
                }
                disposition = trimmed
            } else if asciiCaseInsensitiveEquals(name, "Content-Type") {
                contentType = trimmed
            } else if asciiCaseInsensitiveEquals(name, "Content-Transfer-Encoding") {
                let identity = ["binary", "8bit", "7bit"].contains { asciiCaseInsensitiveEquals(trimmed, $0) }
                guard identity else {
                    throw HTTPError(.badRequest, "A part uses a Content-Transfer-Encoding this site does not accept.")
                }
            }
        }
        guard let disposition else {
            throw HTTPError(.badRequest, "A part has no Content-Disposition header.")
        }
        let parameters = try Self.dispositionParameters(disposition)
        guard let name = parameters.name else {
            throw HTTPError(.badRequest, "A part's Content-Disposition has no name.")
        }
        guard name.utf8.count <= limits.maxNameBytes else {
            throw HTTPError(.badRequest, "A part's name is longer than \(limits.maxNameBytes) bytes.")
        }
        return Part(name: name, filename: parameters.filename, contentType: contentType, content: [])
    }

    /// `form-data; name="title"; filename="a.png"`: the name and filename. Values are tokens or
    /// quoted strings; a quoted string runs to the next `"` (see the type's comment).
    static func dispositionParameters(_ header: String) throws(HTTPError) -> (name: String?, filename: String?) {
        let text = Array(header.utf8)
        var index = 0
        func skipSpaces() {
            while index < text.count && (text[index] == 32 || text[index] == 9) { index += 1 }
        }
        func token() -> String {
            let start = index
            while index < text.count && text[index] != UInt8(ascii: ";") && text[index] != UInt8(ascii: "=")
                && text[index] != 32 && text[index] != 9
            {
                index += 1
            }
            return String(decoding: text[start..<index], as: UTF8.self)
        }
        let malformed = HTTPError(.badRequest, "A part's Content-Disposition header is malformed.")
        skipSpaces()
        guard asciiCaseInsensitiveEquals(token(), "form-data") else {
            throw HTTPError(.badRequest, "A part's Content-Disposition is not form-data.")
        }
        var name: String?
        var filename: String?
        while true {
            skipSpaces()
            if index == text.count { break }
            guard text[index] == UInt8(ascii: ";") else { throw malformed }
            index += 1
            skipSpaces()
            if index == text.count { break }  // a trailing `;`
            let key = token()
            skipSpaces()
            guard !key.isEmpty, index < text.count, text[index] == UInt8(ascii: "=") else { throw malformed }
            index += 1
            skipSpaces()
            let value: String
            if index < text.count && text[index] == UInt8(ascii: "\"") {
                index += 1
                guard let close = text[index...].firstIndex(of: UInt8(ascii: "\"")) else { throw malformed }
                value = String(decoding: text[index..<close], as: UTF8.self)
                index = close + 1
            } else {
                value = token()
            }
            if asciiCaseInsensitiveEquals(key, "name") {
                guard name == nil else { throw malformed }
                name = value
            } else if asciiCaseInsensitiveEquals(key, "filename") {
                guard filename == nil else { throw malformed }
                filename = value
            }
        }
        return (name, filename)
    }
}
