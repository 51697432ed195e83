/// Which link and image targets an article may have: `http:`, `https:` and `mailto:` URLs, and
/// local ones (`/path`, `#fragment`, `?query`, `relative/path`). Everything else is refused:
/// `javascript:`, `data:`, `vbscript:`, `file:`, `ftp:` and any scheme not named here.
///
/// cmark hands over a target with entities and backslash escapes already decoded, so
/// `&#106;avascript:` arrives as `javascript:`. The rest of the obfuscations are undone the way a
/// browser would before it looks for a scheme: leading and trailing controls and spaces stripped,
/// tabs and newlines removed anywhere, the scheme's case ignored. A target without a scheme is
/// local only if no `:` comes before its first `/`, `?` or `#` (so `%6Aavascript:x` and
/// `\u{A0}javascript:x` are refused), it does not begin with `//` or a backslash (another host),
/// and all of that still holds once it is percent-decoded (`javascript%3Ax`), up to three times.
enum MarkdownURLPolicy {
    static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    static func allows(_ url: String) -> Bool {
        var target = Array(url.utf8)
        // Percent-decoding until nothing changes, a few times at most: a target still changing
        // after that is refused (and the cost stays linear in its length).
        for _ in 0..<maxDecodings {
            guard allowsAsWritten(target) else { return false }
            let decoded = percentDecoded(target)
            if decoded == target { return true }
            target = decoded
        }
        return false
    }

    private static let maxDecodings = 4

    private static func allowsAsWritten(_ bytes: [UInt8]) -> Bool {
        var target = bytes[...]
        while let first = target.first, first <= 0x20 { target.removeFirst() }
        while let last = target.last, last <= 0x20 { target.removeLast() }
        let cleaned = target.filter { $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }
        if let scheme = scheme(of: cleaned) {
            return allowedSchemes.contains(scheme)
        }
        let firstSegmentEnd =
            cleaned.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
            ?? cleaned.endIndex
        if cleaned[..<firstSegmentEnd].contains(UInt8(ascii: ":")) { return false }
        let backslash = UInt8(ascii: "\\")
        let slash = UInt8(ascii: "/")
        if cleaned.first == backslash { return false }
        if cleaned.count >= 2, cleaned[0] == slash, cleaned[1] == slash || cleaned[1] == backslash { return false }
        return true
    }

    /// The lowercased scheme, when the target starts with one (a letter, then letters, digits,
    /// `+`, `-` or `.`, then `:`).
    private static func scheme(of bytes: [UInt8]) -> String? {
        guard let colon = bytes.firstIndex(of: UInt8(ascii: ":")), colon > 0 else { return nil }
        let name = bytes[..<colon]
        guard let first = name.first, isLetter(first) else { return nil }
        for byte in name where !(isLetter(byte) || (0x30...0x39).contains(byte) || "+-.".utf8.contains(byte)) {
            return nil
        }
        return String(decoding: name.map { $0 | 0x20 }, as: UTF8.self)
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte)
    }

    private static func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count,
                let high = hexValue(bytes[index + 1]), let low = hexValue(bytes[index + 2])
            {
                out.append(high << 4 | low)
                index += 3
            } else {
                out.append(bytes[index])
                index += 1
            }
        }
        return out
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x41...0x46: byte - 0x41 + 10
        case 0x61...0x66: byte - 0x61 + 10
        default: nil
        }
    }
}
