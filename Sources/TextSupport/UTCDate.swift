#if canImport(Glibc)
    import Glibc
#endif

/// A moment as UTC calendar fields, from Unix seconds, without Foundation's calendars and
/// formatters (they are slow, and fixed formats do not need them). For log lines and pages alike.
public struct UTCDate: Sendable, Equatable {
    public let year: Int
    /// 1 to 12.
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int

    public init(secondsSince1970 seconds: Int) {
        var time = time_t(seconds)
        var parts = tm()
        gmtime_r(&time, &parts)
        year = Int(parts.tm_year) + 1900
        month = Int(parts.tm_mon) + 1
        day = Int(parts.tm_mday)
        hour = Int(parts.tm_hour)
        minute = Int(parts.tm_min)
        second = Int(parts.tm_sec)
    }

    /// `2026-11-29T07:42:00Z` (RFC 3339: log lines, `<time datetime>`, Atom).
    public var rfc3339: String {
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
    }
}
