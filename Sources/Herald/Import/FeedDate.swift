import Foundation

/// Feed dates to Unix seconds, by hand rather than with DateFormatter: exact about what is accepted,
/// independent of locale and time zone data, and cheap for 10,000 entries.
enum FeedDate {
    /// RFC 3339 (Atom, JSON Feed): `2024-03-01T12:30:00Z`, fractions and offsets allowed. The offset is
    /// required: without it the instant is unknown, and guessing would silently shift the date.
    /// Accepted leniently: lowercase `t`/`z`, a space for `T`, missing seconds, `+0100` without colon.
    static func rfc3339(_ text: String) -> Int? {
        var reader = FeedDateScanner(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard let year = reader.number(digits: 4), reader.skip("-"),
            let month = reader.number(digits: 2), reader.skip("-"),
            let day = reader.number(digits: 2), reader.skip(anyOf: "Tt "),
            let hour = reader.number(digits: 2), reader.skip(":"),
            let minute = reader.number(digits: 2)
        else { return nil }
        var second = 0
        if reader.skip(":") {
            guard let value = reader.number(digits: 2) else { return nil }
            second = value
            // Fractions are allowed but Herald stores whole seconds.
            if reader.skip(".") || reader.skip(",") {
                guard reader.skipDigits() > 0 else { return nil }
            }
        }
        guard let offset = reader.zoneOffset(), reader.isAtEnd else { return nil }
        return unixTime(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetSeconds: offset)
    }

    /// Seconds since 1970 for a validated civil date and time at a UTC offset; nil for impossible ones
    /// (month 13, 31 April, 25:00). Leap second 60 is accepted and lands on the next minute.
    static func unixTime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offsetSeconds: Int)
        -> Int?
    {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
            - offsetSeconds
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// A cursor over the ASCII of a date string.
struct FeedDateScanner {
    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    var isAtEnd: Bool { position == bytes.count }

    /// Exactly `digits` decimal digits.
    mutating func number(digits: Int) -> Int? {
        guard position + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[position..<(position + digits)] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        position += digits
        return value
    }

    mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
        return position - start
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        skip(anyOf: String(character))
    }

    mutating func skip(anyOf characters: String) -> Bool {
        guard position < bytes.count, characters.utf8.contains(bytes[position]) else { return false }
        position += 1
        return true
    }

    /// `Z` or `±HH:MM` / `±HHMM` as seconds east of UTC.
    mutating func zoneOffset() -> Int? {
        if skip(anyOf: "Zz") { return 0 }
        guard position < bytes.count else { return nil }
        let sign: Int
        switch bytes[position] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        position += 1
        guard let hours = number(digits: 2) else { return nil }
        _ = skip(":")
        guard let minutes = number(digits: 2), hours <= 23, minutes <= 59 else { return nil }
        return sign * (hours * 3_600 + minutes * 60)
    }
}
