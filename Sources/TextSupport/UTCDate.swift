/// A moment as UTC calendar fields, from Unix seconds, without Foundation's calendars and
/// formatters (they are slow, and fixed formats do not need them). For log lines and pages alike.
///
/// The fields are worked out arithmetically (the proleptic Gregorian calendar, as `gmtime` does
/// for Unix time): `gmtime_r` takes glibc's time-zone lock on every call, and a page of a hundred
/// dates called it three hundred times.
public struct UTCDate: Sendable, Equatable {
    public let year: Int
    /// 1 to 12.
    public let month: Int
    public let day: Int
    public let hour: Int
    public let minute: Int
    public let second: Int

    public init(secondsSince1970 seconds: Int) {
        var days = seconds / 86_400
        var time = seconds % 86_400
        if time < 0 {
            time += 86_400
            days -= 1
        }
        hour = time / 3600
        minute = time % 3600 / 60
        second = time % 60
        // Days since 1970-01-01 to a civil date (Howard Hinnant's `civil_from_days`): eras of
        // 400 years counted from 0000-03-01, so that leap days fall at the end of a year.
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// `2026-11-29T07:42:00Z` (RFC 3339: log lines, `<time datetime>`, Atom).
    public var rfc3339: String {
        guard (1000...9999).contains(year) else {
            func two(_ number: Int) -> String { number < 10 ? "0\(number)" : "\(number)" }
            return "\(year)-\(two(month))-\(two(day))T\(two(hour)):\(two(minute)):\(two(second))Z"
        }
        return String(unsafeUninitializedCapacity: 20) { bytes in
            func put(_ number: Int, digits: Int, at index: Int) {
                DecimalDigits.write(number, digits: digits, into: bytes, at: index)
            }
            put(year, digits: 4, at: 0)
            bytes[4] = UInt8(ascii: "-")
            put(month, digits: 2, at: 5)
            bytes[7] = UInt8(ascii: "-")
            put(day, digits: 2, at: 8)
            bytes[10] = UInt8(ascii: "T")
            put(hour, digits: 2, at: 11)
            bytes[13] = UInt8(ascii: ":")
            put(minute, digits: 2, at: 14)
            bytes[16] = UInt8(ascii: ":")
            put(second, digits: 2, at: 17)
            bytes[19] = UInt8(ascii: "Z")
            return 20
        }
    }
}
