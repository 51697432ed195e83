import Testing
import TextSupport

@testable import HTTP

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ASCIITests {
    @Test func trimsSpacesAndTabsAtBothEnds() {
        #expect(Substring(" \t a b \t").trimmingASCIIWhitespace() == "a b")
        #expect(Substring(" \t ").trimmingASCIIWhitespace() == "")
        #expect(Substring("").trimmingASCIIWhitespace() == "")
        #expect(Substring("\u{00A0}é x\r\n").trimmingASCIIWhitespace() == "\u{00A0}é x\r\n")
        let cookies = RequestCookies(header: " a = 1 ;\tb=\"two\"\t; c= é ")
        #expect(cookies["a"] == "1" && cookies["b"] == "two" && cookies["c"] == "é")
    }

    @Test func trimsTrailingLineEndsOfMessages() {
        #expect("connection refused\r\n".trimmingTrailingASCIIWhitespace() == "connection refused")
        #expect(" kept in front \n \t".trimmingTrailingASCIIWhitespace() == " kept in front")
        #expect("\n\n".trimmingTrailingASCIIWhitespace() == "")
    }

    @Test func hexDigitsOfEveryByte() {
        for byte in UInt8.min...UInt8.max {
            let expected = Int(String(UnicodeScalar(byte)), radix: 16).map { UInt8($0) }
            #expect(ASCII.hexValue(byte) == expected, "byte \(byte)")
        }
    }

    @Test func utcDatesAsRFC3339() {
        #expect(UTCDate(secondsSince1970: 0).rfc3339 == "1970-01-01T00:00:00Z")
        #expect(UTCDate(secondsSince1970: 1_709_663_400).rfc3339 == "2024-03-05T18:30:00Z")
        let date = UTCDate(secondsSince1970: 1_795_935_722)
        #expect([date.year, date.month, date.day, date.hour, date.minute, date.second] == [2026, 11, 29, 7, 2, 2])
        #expect(utcTimestamp(1_795_935_722) == "2026-11-29T07:02:02Z")
    }

    /// The arithmetic agrees with the C library's `gmtime_r` over leap years, century years,
    /// the 1970 epoch, times before it and far after it.
    @Test func utcDatesAgreeWithGmtime() {
        var random = SystemRandomNumberGenerator()
        let fixed = [
            0, -1, 86_399, 86_400, -86_400, -86_401, 951_782_400, 951_868_799, 4_107_542_400, -2_208_988_800,
            253_402_300_799, -62_135_596_800, 1_709_251_199, 1_709_251_200,
        ]
        let samples =
            fixed + (0..<20_000).map { _ in Int.random(in: -62_135_596_800...253_402_300_799, using: &random) }
        for seconds in samples {
            var time = time_t(seconds)
            var parts = tm()
            gmtime_r(&time, &parts)
            let date = UTCDate(secondsSince1970: seconds)
            let expected = [
                Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour),
                Int(parts.tm_min), Int(parts.tm_sec),
            ]
            #expect([date.year, date.month, date.day, date.hour, date.minute, date.second] == expected, "\(seconds)")
        }
        #expect(UTCDate(secondsSince1970: -62_135_596_800).rfc3339 == "1-01-01T00:00:00Z")
        #expect(UTCDate(secondsSince1970: 253_402_300_799).rfc3339 == "9999-12-31T23:59:59Z")
        #expect(UTCDate(secondsSince1970: 951_868_799).rfc3339 == "2000-02-29T23:59:59Z")
    }
}
