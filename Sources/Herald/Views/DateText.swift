#if canImport(Glibc)
    import Glibc
#endif

/// Dates for pages and feeds, formatted from Unix seconds without Foundation's
/// formatters (they are slow and not needed for two fixed formats).
enum DateText {
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// `2026-11-29T07:42:00Z` (RFC 3339, for `<time datetime>` and Atom).
    static func rfc3339(_ seconds: Int) -> String {
        let parts = utcParts(seconds)
        return
            "\(parts.year)-\(two(parts.month))-\(two(parts.day))T\(two(parts.hour)):\(two(parts.minute)):\(two(parts.second))Z"
    }

    /// `29 November 2026` (for readers).
    static func long(_ seconds: Int) -> String {
        let parts = utcParts(seconds)
        return "\(parts.day) \(months[parts.month - 1]) \(parts.year)"
    }

    private static func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }

    private static func utcParts(_ seconds: Int) -> (
        year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    ) {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        return (
            Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour),
            Int(parts.tm_min), Int(parts.tm_sec)
        )
    }
}
