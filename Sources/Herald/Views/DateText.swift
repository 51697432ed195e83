import TextSupport

/// Dates for pages and feeds, formatted from Unix seconds in UTC (`UTCDate`, without Foundation's
/// formatters: they are slow and not needed for two fixed formats).
enum DateText {
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]

    /// `2026-11-29T07:42:00Z` (RFC 3339, for `<time datetime>` and Atom).
    static func rfc3339(_ seconds: Int) -> String {
        UTCDate(secondsSince1970: seconds).rfc3339
    }

    /// `29 November 2026` (for readers).
    static func long(_ seconds: Int) -> String {
        let date = UTCDate(secondsSince1970: seconds)
        return "\(date.day) \(months[date.month - 1]) \(date.year)"
    }

    /// `07:42` (UTC), for times that matter to the minute (schedules, the desk).
    static func timeOfDay(_ seconds: Int) -> String {
        let date = UTCDate(secondsSince1970: seconds)
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
        return two(date.hour) + ":" + two(date.minute)
    }
}
