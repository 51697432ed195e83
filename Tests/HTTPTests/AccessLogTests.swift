import Testing

@testable import HTTP

/// The access log never holds a secret that travels in a path: the token of a password-reset
/// link or of an email-confirmation link (issue #28) is replaced before the line is written.
@Suite struct AccessLogTests {
    @Test func linkTokensAreRedacted() {
        #expect(AccessLog<Int>.redacted("/account/email/confirm/abc_DEF-123") == "/account/email/confirm/[token]")
        #expect(AccessLog<Int>.redacted("/password/reset/abc") == "/password/reset/[token]")
        #expect(AccessLog<Int>.redacted("/account/email") == "/account/email")
        #expect(AccessLog<Int>.redacted("/articles/confirm") == "/articles/confirm")
    }
}
