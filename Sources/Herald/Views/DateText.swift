import TextSupport

/// Dates for pages and feeds, formatted from Unix seconds in UTC (`UTCDate`, without Foundation's
/// formatters: they are slow and not needed for two fixed formats).
enum DateText {
    private static let months = [
        "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
        "November", "December",
    ]
    private static let monthBytes = months.map { Array($0.utf8) }

    /// `2026-11-29T07:42:00Z` (RFC 3339, for `<time datetime>` and Atom).
    static func rfc3339(_ seconds: Int) -> String {
        UTCDate(secondsSince1970: seconds).rfc3339
    }

    /// `29 November 2026` (for readers).
    static func long(_ seconds: Int) -> String {
        written(UTCDate(secondsSince1970: seconds), withTime: false)
    }

    /// `29 November 2026, 07:42` (the desk, the moderation log).
    static func dayAndTime(_ seconds: Int) -> String {
        written(UTCDate(secondsSince1970: seconds), withTime: true)
    }

    /// `07:42` (UTC), for times that matter to the minute (schedules).
    static func timeOfDay(_ seconds: Int) -> String {
        time(of: UTCDate(secondsSince1970: seconds))
    }

    private static func time(of date: UTCDate) -> String {
        // Five ASCII bytes: a small string, made in place with no allocation.
        String(unsafeUninitializedCapacity: 5) { bytes in
            writeTime(date, into: bytes, at: 0)
            return 5
        }
    }

    /// The day, month and year (and the time) written into one buffer: pages list fifty or a
    /// hundred dates, and joining the pieces with `+` made a new string for each piece.
    private static func written(_ date: UTCDate, withTime: Bool) -> String {
        guard (1...9999).contains(date.year) else {
            let day = "\(date.day) \(months[date.month - 1]) \(date.year)"
            return withTime ? day + ", " + time(of: date) : day
        }
        // "29 September 2026, 07:42" is the longest: 24 bytes.
        return String(unsafeUninitializedCapacity: 24) { bytes in
            var count = 0
            func put(_ byte: UInt8) {
                bytes[count] = byte
                count += 1
            }
            func put(number: Int) {
                let digits = DecimalDigits.count(of: number)
                DecimalDigits.write(number, digits: digits, into: bytes, at: count)
                count += digits
            }
            put(number: date.day)
            put(UInt8(ascii: " "))
            for byte in monthBytes[date.month - 1] { put(byte) }
            put(UInt8(ascii: " "))
            put(number: date.year)
            if withTime {
                put(UInt8(ascii: ","))
                put(UInt8(ascii: " "))
                writeTime(date, into: bytes, at: count)
                count += 5
            }
            return count
        }
    }

    private static func writeTime(_ date: UTCDate, into bytes: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        DecimalDigits.write(date.hour, digits: 2, into: bytes, at: start)
        bytes[start + 2] = UInt8(ascii: ":")
        DecimalDigits.write(date.minute, digits: 2, into: bytes, at: start + 3)
    }
}

extension DateText {
    /// How long ago, in words, for comments: "just now", "5 minutes ago", "3 hours ago",
    /// "yesterday", "4 days ago"; from four weeks on, the date itself ("29 November 2026"). The
    /// exact time goes in the element's `title` (`dayAndTime`). A time ahead of `now` (another
    /// server's clock a little ahead) reads "just now".
    static func relative(_ seconds: Int, now: Int) -> String {
        let elapsed = now - seconds
        switch elapsed {
        case ..<60: return "just now"
        case ..<3600: return ago(elapsed / 60, "minute")
        case ..<86_400: return ago(elapsed / 3600, "hour")
        case ..<(2 * 86_400): return "yesterday"
        case ..<(28 * 86_400): return ago(elapsed / 86_400, "day")
        default: return long(seconds)
        }
    }

    private static func ago(_ count: Int, _ unit: String) -> String {
        "\(count) \(unit)\(count == 1 ? "" : "s") ago"
    }
}
