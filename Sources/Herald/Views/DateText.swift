import TextSupport

/// Dates for pages and feeds, formatted from Unix seconds in UTC (`UTCDate`, without Foundation's
/// formatters: they are slow and not needed for two fixed formats), in the interface language:
/// "29 November 2026" or 「2026年11月29日」. The language defaults to the page being rendered
/// (`Messages.rendering`), so a view model needs no language of its own.
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

    /// `29 November 2026`, `2026年11月29日` (for readers).
    static func long(_ seconds: Int, in language: InterfaceLanguage = Messages.rendering.language) -> String {
        switch language {
        case .english: written(UTCDate(secondsSince1970: seconds), withTime: false)
        case .traditionalChinese: writtenInChinese(UTCDate(secondsSince1970: seconds), withTime: false)
        }
    }

    /// `29 November 2026, 07:42`, `2026年11月29日 07:42` (the desk, the moderation log).
    static func dayAndTime(_ seconds: Int, in language: InterfaceLanguage = Messages.rendering.language) -> String {
        switch language {
        case .english: written(UTCDate(secondsSince1970: seconds), withTime: true)
        case .traditionalChinese: writtenInChinese(UTCDate(secondsSince1970: seconds), withTime: true)
        }
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
            var out = DateBytes(bytes)
            out.put(number: date.day)
            out.put(byte: UInt8(ascii: " "))
            out.put(monthBytes[date.month - 1])
            out.put(byte: UInt8(ascii: " "))
            out.put(number: date.year)
            if withTime {
                out.put(byte: UInt8(ascii: ","))
                out.put(byte: UInt8(ascii: " "))
                out.putTime(date)
            }
            return out.count
        }
    }

    private static let year = Array("年".utf8)
    private static let month = Array("月".utf8)
    private static let day = Array("日".utf8)

    /// 「2026年11月29日」 (and 「 07:42」): the way Taiwan writes a date, digits without padding.
    private static func writtenInChinese(_ date: UTCDate, withTime: Bool) -> String {
        guard (1...9999).contains(date.year) else {
            let day = "\(date.year)年\(date.month)月\(date.day)日"
            return withTime ? day + " " + time(of: date) : day
        }
        // "9999年12月31日 23:59" is the longest: 23 bytes.
        return String(unsafeUninitializedCapacity: 23) { bytes in
            var out = DateBytes(bytes)
            out.put(number: date.year)
            out.put(year)
            out.put(number: date.month)
            out.put(month)
            out.put(number: date.day)
            out.put(day)
            if withTime {
                out.put(byte: UInt8(ascii: " "))
                out.putTime(date)
            }
            return out.count
        }
    }

    private static func writeTime(_ date: UTCDate, into bytes: UnsafeMutableBufferPointer<UInt8>, at start: Int) {
        DecimalDigits.write(date.hour, digits: 2, into: bytes, at: start)
        bytes[start + 2] = UInt8(ascii: ":")
        DecimalDigits.write(date.minute, digits: 2, into: bytes, at: start + 3)
    }

    /// A date written piece by piece into a string's buffer, in either language's order.
    private struct DateBytes {
        let bytes: UnsafeMutableBufferPointer<UInt8>
        private(set) var count = 0

        init(_ bytes: UnsafeMutableBufferPointer<UInt8>) { self.bytes = bytes }

        mutating func put(byte: UInt8) {
            bytes[count] = byte
            count += 1
        }

        mutating func put(_ piece: [UInt8]) {
            for byte in piece {
                bytes[count] = byte
                count += 1
            }
        }

        mutating func put(number: Int) {
            let digits = DecimalDigits.count(of: number)
            DecimalDigits.write(number, digits: digits, into: bytes, at: count)
            count += digits
        }

        /// `07:42`.
        mutating func putTime(_ date: UTCDate) {
            DateText.writeTime(date, into: bytes, at: count)
            count += 5
        }
    }
}

extension DateText {
    /// How long ago, in words, for comments: "just now", "5 minutes ago", "3 hours ago",
    /// "yesterday", "4 days ago"; from four weeks on, the date itself ("29 November 2026"). The
    /// exact time goes in the element's `title` (`dayAndTime`). A time ahead of `now` (another
    /// server's clock a little ahead) reads "just now".
    static func relative(
        _ seconds: Int, now: Int, in language: InterfaceLanguage = Messages.rendering.language
    ) -> String {
        let elapsed = now - seconds
        if language == .traditionalChinese {
            // 「剛剛」「5 分鐘前」「3 小時前」「昨天」「4 天前」: no plural, a space between digits and words.
            switch elapsed {
            case ..<60: return "剛剛"
            case ..<3600: return "\(elapsed / 60) 分鐘前"
            case ..<86_400: return "\(elapsed / 3600) 小時前"
            case ..<(2 * 86_400): return "昨天"
            case ..<(28 * 86_400): return "\(elapsed / 86_400) 天前"
            default: return long(seconds, in: language)
            }
        }
        switch elapsed {
        case ..<60: return "just now"
        case ..<3600: return ago(elapsed / 60, "minute")
        case ..<86_400: return ago(elapsed / 3600, "hour")
        case ..<(2 * 86_400): return "yesterday"
        case ..<(28 * 86_400): return ago(elapsed / 86_400, "day")
        default: return long(seconds, in: language)
        }
    }

    private static func ago(_ count: Int, _ unit: String) -> String {
        "\(count) \(unit)\(count == 1 ? "" : "s") ago"
    }
}
