import Testing

@testable import Herald

/// The POST routes `CrossOriginProtection` asks no form token of: exactly these, nothing near them.
@Suite struct FormTokenExemptionTests {
    @Test(arguments: [
        ("/language", true), ("/language/", false), ("/languages", false), ("/language/x", false),
    ])
    func aPreferenceIsItsExactPathOnly(path: String, exempt: Bool) {
        #expect(FormTokenExemption.preference(path: "/language").matches(path) == exempt)
    }

    @Test(arguments: [
        ("/mail/unsubscribe/12.abc", true), ("/mail/unsubscribe/", false), ("/mail/unsubscribe", false),
        ("/mail/unsubscribe/12.abc/more", false), ("/mail/unsubscribe/12.abc/", false), ("/mail/other/12", false),
    ])
    func aTokenInThePathIsOneSegmentBelowItsPrefix(path: String, exempt: Bool) {
        #expect(FormTokenExemption.tokenInPath(prefix: "/mail/unsubscribe/").matches(path) == exempt)
    }
}
