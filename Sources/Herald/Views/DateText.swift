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
        long(UTCDate(secondsSince1970: seconds))
    }

    static func long(_ date: UTCDate) -> String {
        String(date.day) + " " + months[date.month - 1] + " " + String(date.year)
    }

    /// `29 November 2026, 07:42` (the desk, the moderation log).
    static func dayAndTime(_ seconds: Int) -> String {
        let date = UTCDate(secondsSince1970: seconds)
        return long(date) + ", " + timeOfDay(date)
    }

    /// `07:42` (UTC), for times that matter to the minute (schedules, the desk).
    static func timeOfDay(_ seconds: Int) -> String {
        timeOfDay(UTCDate(secondsSince1970: seconds))
    }

    static func timeOfDay(_ date: UTCDate) -> String {
        // Five ASCII bytes: a small string, built in place with no allocation.
        String(unsafeUninitializedCapacity: 5) { bytes in
            bytes[0] = UInt8(48 + date.hour / 10)
            bytes[1] = UInt8(48 + date.hour % 10)
            bytes[2] = UInt8(ascii: ":")
            bytes[3] = UInt8(48 + date.minute / 10)
            bytes[4] = UInt8(48 + date.minute % 10)
            return 5
        }
    }
}
