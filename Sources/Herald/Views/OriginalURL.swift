import Foundation

/// Imported articles link to where they came from; the link names the site ("Read the original
/// at example.com").
enum OriginalURL {
    /// `https://news.example.com/a/b` → `news.example.com`; empty for anything else.
    static func host(of url: String) -> String {
        let lower = url.lowercased()
        let rest: Substring
        if lower.hasPrefix("https://") {
            rest = url.dropFirst(8)
        } else if lower.hasPrefix("http://") {
            rest = url.dropFirst(7)
        } else {
            return ""
        }
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@").last ?? ""
        return String(host)
    }

    /// The URL when it is an absolute http or https URL without spaces or control characters
    /// (what a feed's link may be shown as), else empty.
    static func checked(_ url: String) -> String {
        let trimmed = url.trimmingCharacters(in: .whitespaces)
        guard trimmed.utf8.count <= 2000, !host(of: trimmed).isEmpty,
            !trimmed.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F })
        else { return "" }
        return trimmed
    }
}
