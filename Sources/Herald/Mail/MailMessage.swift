import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// Why a message could not be built, or the mail settings could not be used.
public enum MailError: Error, Equatable, Sendable, CustomStringConvertible {
    /// Not an address we send to; `reason` names the rule it breaks (never the address itself).
    case invalidAddress(reason: String)
    /// A header value holds CR, LF or another control character: refused, so that no input can
    /// add a header (`Bcc:`) or end the headers early.
    case headerInjection(field: String)
    /// `HERALD_SMTP_URL` cannot be used; `reason` never contains the password.
    case invalidServerURL(reason: String)

    public var description: String {
        switch self {
        case .invalidAddress(let reason): "not a usable email address: \(reason)"
        case .headerInjection(let field): "the \(field) header may not contain line breaks or control characters"
        case .invalidServerURL(let reason): "HERALD_SMTP_URL: \(reason)"
        }
    }
}

/// An email address as Herald accepts it: one `@` between a non-empty local part and a domain
/// that has a dot, at most 254 bytes, no spaces or control characters, and none of the
/// characters that delimit addresses in headers and SMTP commands (`<>,;"()[]\`).
public struct MailAddress: Sendable, Hashable, CustomStringConvertible {
    public let text: String

    public init(_ text: String) throws(MailError) {
        if text.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" }) {
            throw .headerInjection(field: "address")
        }
        guard !text.isEmpty, text.utf8.count <= 254 else {
            throw .invalidAddress(reason: "it must be 1 to 254 bytes long")
        }
        for scalar in text.unicodeScalars {
            if scalar.value <= 0x20 || (0x7F...0xA0).contains(scalar.value) || scalar.properties.isWhitespace {
                throw .invalidAddress(reason: "it may not contain spaces or control characters")
            }
            if "<>,;\"()[]\\".unicodeScalars.contains(scalar) {
                throw .invalidAddress(reason: "it may not contain any of <>,;\"()[]\\")
            }
        }
        let parts = text.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty else {
            throw .invalidAddress(reason: "it needs exactly one @ after a name")
        }
        let domain = parts[1]
        guard domain.contains("."), domain.first != ".", domain.last != ".", !domain.contains("..") else {
            throw .invalidAddress(reason: "its domain needs a dot between two names")
        }
        self.text = text
    }

    public var domain: Substring { text[text.index(after: text.firstIndex(of: "@") ?? text.startIndex)...] }

    public var description: String { text }
}

/// A header beyond the ones every message has (`List-Unsubscribe`): a name of letters, digits and
/// `-`, and a value of printable ASCII (a URL in angle brackets), so that neither can add a
/// header or end the headers early, and neither needs encoding.
public struct MailHeader: Sendable, Equatable {
    public let name: String
    public let value: String

    public init(_ name: String, _ value: String) throws(MailError) {
        guard !name.isEmpty, name.utf8.count <= 76,
            name.utf8.allSatisfy({
                $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x41...0x5A).contains($0)
                    || (0x61...0x7A).contains($0)
            })
        else { throw .headerInjection(field: "a header name") }
        guard value.utf8.count <= 900, value.utf8.allSatisfy({ (0x20...0x7E).contains($0) }) else {
            throw .headerInjection(field: name)
        }
        self.name = name
        self.value = value
    }
}

/// One email: a plain-text part and a short HTML part of the same content, as
/// `multipart/alternative`, rendered as RFC 5322 with CRLF line endings.
///
/// Dot-stuffing (a body line that starts with `.`) is not done here: libcurl does it for every
/// SMTP upload (`\r\n.` is sent as `\r\n..`, RFC 5321 §4.5.2), and it relies on the CRLF line
/// endings this type always produces.
public struct MailMessage: Sendable {
    public let from: MailAddress
    /// Shown before the address (`Herald <news@example.com>`); any Unicode text.
    public let fromName: String?
    public let to: MailAddress
    public let subject: String
    public let text: String
    public let html: String
    /// Written after `Message-ID`, in order.
    public let headers: [MailHeader]

    /// Throws `.headerInjection` when the subject or the sender's name holds CR, LF or another
    /// control character (bodies may hold anything: they are encoded).
    public init(
        from: MailAddress, fromName: String? = nil, to: MailAddress, subject: String, text: String, html: String,
        headers: [MailHeader] = []
    ) throws(MailError) {
        try Self.checkHeaderValue(subject, field: "Subject")
        if let fromName { try Self.checkHeaderValue(fromName, field: "From") }
        self.from = from
        self.fromName = fromName
        self.to = to
        self.subject = subject
        self.text = text
        self.html = html
        self.headers = headers
    }

    /// The message as sent. `date` is in seconds since 1970; `id` is the part of the
    /// Message-ID before the `@`.
    public func rendered(date: Int = Int(time(nil)), id: String = MailMessage.randomToken()) -> [UInt8] {
        let boundary = "=_herald_" + Self.randomToken()
        var headers = [
            "From: " + (fromName.map { Self.phrase($0) + " <\(from.text)>" } ?? from.text),
            "To: " + to.text,
            Self.encodedHeader("Subject", subject),
            "Date: " + Self.rfc5322Date(date),
            "Message-ID: <\(id)@\(Self.isPlainASCII(from.domain) ? String(from.domain) : "localhost")>",
        ]
        headers += self.headers.map { "\($0.name): \($0.value)" }
        headers += [
            "MIME-Version: 1.0",
            "Content-Type: multipart/alternative;\r\n boundary=\"\(boundary)\"",
        ]
        headers.append("")
        var out = Array(headers.joined(separator: "\r\n").utf8)
        out += Array("\r\n".utf8)
        for (type, body) in [("text/plain", text), ("text/html", html)] {
            out += Array("--\(boundary)\r\n".utf8)
            out += Array("Content-Type: \(type); charset=utf-8\r\n".utf8)
            out += Array("Content-Transfer-Encoding: quoted-printable\r\n\r\n".utf8)
            out += Self.quotedPrintable(body)
            out += Array("\r\n".utf8)
        }
        out += Array("--\(boundary)--\r\n".utf8)
        return out
    }

    /// 128 random bits as 32 hexadecimal digits (Message-ID and boundary).
    public static func randomToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let high = generator.next() as UInt64
        let low = generator.next() as UInt64
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(high) + hex(low)
    }

    // MARK: - Headers

    static func checkHeaderValue(_ value: String, field: String) throws(MailError) {
        for scalar in value.unicodeScalars
        where scalar.value < 0x20 || (0x7F..<0xA0).contains(scalar.value) || scalar == "\u{2028}"
            || scalar == "\u{2029}"
        {
            throw .headerInjection(field: field)
        }
    }

    private static func isPlainASCII<S: StringProtocol>(_ text: S) -> Bool {
        text.utf8.allSatisfy { (0x20...0x7E).contains($0) }
    }

    /// `Name: value` as it is when that is plain, short ASCII that cannot be mistaken for an
    /// encoded word; else RFC 2047 encoded words, folded onto continuation lines.
    static func encodedHeader(_ name: String, _ value: String) -> String {
        if isPlainASCII(value), !value.contains("=?"), value.utf8.count <= 900 {
            return "\(name): \(value)"
        }
        return "\(name): " + encodedWords(value).joined(separator: "\r\n ")
    }

    /// A display name: bare when it is only letters, digits and spaces; quoted when it is other
    /// ASCII; encoded words otherwise.
    static func phrase(_ name: String) -> String {
        let bare = name.unicodeScalars.allSatisfy {
            $0.isASCII && ($0.properties.isAlphabetic || $0.properties.numericType != nil || $0 == " ")
        }
        if bare, !name.isEmpty { return name }
        if isPlainASCII(name), !name.contains("=?"), name.utf8.count <= 200 {
            return "\"" + name.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"") + "\""
        }
        return encodedWords(name).joined(separator: "\r\n ")
    }

    /// RFC 2047 `=?UTF-8?B?…?=` words of 60 characters at most (36 bytes of UTF-8 become 48 of
    /// base64), so that `Subject: ` and a word fit in 78; never splitting a character's bytes
    /// between two words.
    static func encodedWords(_ value: String) -> [String] {
        var words: [String] = []
        var chunk: [UInt8] = []
        func flush() {
            words.append("=?UTF-8?B?" + Data(chunk).base64EncodedString() + "?=")
            chunk.removeAll()
        }
        for scalar in value.unicodeScalars {
            let bytes = Array(String(scalar).utf8)
            if chunk.count + bytes.count > 36 { flush() }
            chunk += bytes
        }
        if !chunk.isEmpty || words.isEmpty { flush() }
        return words
    }

    /// `Tue, 02 Jun 2026 10:00:00 +0000`.
    static func rfc5322Date(_ seconds: Int) -> String {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(days[Int(parts.tm_wday) % 7]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon) % 12]) "
            + "\(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) +0000"
    }

    // MARK: - Bodies

    /// Quoted-printable (RFC 2045 §6.7) rather than base64: the parts are mostly ASCII (the site
    /// name, a sentence, a link), so QP is nearly as small as the text, stays readable in the raw
    /// message and in logs of test servers, and its soft line breaks keep every line under 77
    /// characters however long a line of text (or a link) is. It also leaves a line starting
    /// with `.` as it is, so libcurl's dot-stuffing is what protects it, as it should be.
    ///
    /// Line breaks (CRLF, LF or CR) become CRLF; `=`, controls, bytes ≥ 0x80 and a space or tab
    /// at the end of a line are written `=XX`.
    static func quotedPrintable(_ text: String) -> [UInt8] {
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        var lines: [[UInt8]] = [[]]
        var previousWasCR = false
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\r"):
                lines.append([])
                previousWasCR = true
                continue
            case UInt8(ascii: "\n"):
                if !previousWasCR { lines.append([]) }
            default:
                lines[lines.count - 1].append(byte)
            }
            previousWasCR = false
        }
        for (lineIndex, line) in lines.enumerated() {
            if lineIndex > 0 { out += [0x0D, 0x0A] }
            var column = 0
            for (index, byte) in line.enumerated() {
                let isLast = index == line.count - 1
                let literal =
                    (byte == 0x20 || byte == 0x09) ? !isLast : (0x21...0x7E).contains(byte) && byte != UInt8(ascii: "=")
                let width = literal ? 1 : 3
                // 76 characters at most per line, counting the `=` of a soft line break.
                if column + width > 75 {
                    out += [UInt8(ascii: "="), 0x0D, 0x0A]
                    column = 0
                }
                if literal {
                    out.append(byte)
                } else {
                    out += [UInt8(ascii: "="), hex[Int(byte >> 4)], hex[Int(byte & 0x0F)]]
                }
                column += width
            }
        }
        return out
    }
}
