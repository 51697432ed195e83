import TextSupport

/// Which link and image targets an article may have: `http:`, `https:` and `mailto:` URLs, and
/// local ones (`/path`, `#fragment`, `?query`, `relative/path`). Everything else is refused:
/// `javascript:`, `data:`, `vbscript:`, `file:`, `ftp:` and any scheme not named here.
///
/// cmark hands over a target with entities and backslash escapes already decoded, so
/// `&#106;avascript:` arrives as `javascript:`; a scheme's case is ignored. A target is refused when:
/// - a space or control character (tab and newline included) comes before its first `/`, `?` or
///   `#`, where a browser would skip it to find a scheme (` javascript:`, `java\tscript:`);
/// - it has no scheme but a `:` before its first `/`, `?` or `#` (`%6Aavascript:x`,
///   `\u{A0}javascript:x`);
/// - it starts with `javascript` or `vbscript`, even without a colon;
/// - it starts with `//` or a backslash (another host, with no scheme named);
/// - any of that holds once it is percent-decoded (`javascript%3Ax`), up to three times.
enum MarkdownURLPolicy {
    static let allowedSchemes: Set<String> = ["http", "https", "mailto"]

    /// A relative target may not even start with these: harmless without a colon, but nothing an
    /// editor means, and one browser quirk away from a script.
    private static let scriptSchemes = ["javascript", "vbscript"]

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

    private static func allowsAsWritten(_ target: [UInt8]) -> Bool {
        let firstSegment = target.prefix {
            $0 != UInt8(ascii: "/") && $0 != UInt8(ascii: "?") && $0 != UInt8(ascii: "#")
        }
        // Browsers skip spaces, controls, tabs and newlines there on their way to a scheme
        // (` javascript:`, `java\tscript:`), while cmark would percent-encode them: no reading of
        // such a target is both safe and what was meant.
        if firstSegment.contains(where: { $0 <= 0x20 || $0 == 0x7F }) { return false }
        if let scheme = scheme(of: target) { return allowedSchemes.contains(scheme) }
        if firstSegment.contains(UInt8(ascii: ":")) { return false }
        let lowered = target.map { isLetter($0) ? $0 | 0x20 : $0 }
        if scriptSchemes.contains(where: { lowered.starts(with: $0.utf8) }) { return false }
        let backslash = UInt8(ascii: "\\")
        let slash = UInt8(ascii: "/")
        if target.first == backslash { return false }
        if target.count >= 2, target[0] == slash, target[1] == slash || target[1] == backslash { return false }
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
                let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2])
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
}
