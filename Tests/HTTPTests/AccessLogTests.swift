import Testing

@testable import HTTP

/// The access log never holds a secret that travels in a path: the token of a password-reset
/// link or of an email-confirmation link (issue #28) is replaced before the line is written.
@Suite struct AccessLogTests {
    /// The prefixes Herald gives (`HeraldApp.pathsWithSecrets`); HTTP itself knows no paths.
    static let secrets = ["/password/reset/", "/account/email/confirm/"]

    @Test func linkTokensAreRedacted() {
        #expect(
            AccessLog<Int>.redacted("/account/email/confirm/abc_DEF-123", secretPrefixes: Self.secrets)
                == "/account/email/confirm/[token]")
        #expect(
            AccessLog<Int>.redacted("/password/reset/abc", secretPrefixes: Self.secrets) == "/password/reset/[token]")
        #expect(AccessLog<Int>.redacted("/account/email", secretPrefixes: Self.secrets) == "/account/email")
        #expect(AccessLog<Int>.redacted("/articles/confirm", secretPrefixes: Self.secrets) == "/articles/confirm")
    }
}
