import Testing
import TextSupport

@testable import HTTP

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
}
