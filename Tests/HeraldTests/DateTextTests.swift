import Glibc
import Testing

@testable import Herald

/// The dates readers see, written byte by byte: checked against the C library's calendar.
@Suite struct DateTextTests {
    @Test func daysAndTimesReadAsWritten() {
        #expect(DateText.long(1_795_935_722) == "29 November 2026")
        #expect(DateText.dayAndTime(1_795_935_722) == "29 November 2026, 07:02")
        #expect(DateText.long(0) == "1 January 1970")
        #expect(DateText.dayAndTime(0) == "1 January 1970, 00:00")
        #expect(DateText.dayAndTime(1_790_812_799) == "30 September 2026, 23:59")
        #expect(DateText.timeOfDay(1_795_935_722) == "07:02")
        // Years of fewer and more than four digits (the written form's edges, and past them).
        #expect(DateText.long(-61_851_600_000) == "1 January 10")
        #expect(DateText.long(-59_011_459_200) == "1 January 100")
        #expect(DateText.dayAndTime(253_402_300_799) == "31 December 9999, 23:59")
        #expect(DateText.dayAndTime(253_402_300_800) == "1 January 10000, 00:00")
    }

    @Test func everyDayOfALeapYearMatchesThePlainForm() {
        let months = [
            "January", "February", "March", "April", "May", "June", "July", "August", "September", "October",
            "November", "December",
        ]
        let start = 1_704_067_200  // 2024-01-01T00:00:00Z
        for day in 0..<366 {
            let seconds = start + day * 86_400 + (day * 7_919) % 86_400
            var time = time_t(seconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            let plain = "\(parts.tm_mday) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900)"
            let clock = String(format2: parts.tm_hour) + ":" + String(format2: parts.tm_min)
            #expect(DateText.long(seconds) == plain)
            #expect(DateText.dayAndTime(seconds) == plain + ", " + clock)
        }
    }
}

extension String {
    fileprivate init(format2 number: Int32) {
        self = number < 10 ? "0\(number)" : "\(number)"
    }
}
