import Foundation
import HTTP
import TestSupport
import Testing

@testable import Herald

/// SPEC "Accounts": password reset by email, against a real SMTP server (aiosmtpd), and the
/// pending action surviving it (issue #16).
@Suite struct PasswordResetTests {
    private func app(_ sink: SMTPSink, configure: (inout Configuration) -> Void = { _ in }) throws -> TestApp {
        try TestApp(server: false) {
            $0.smtpURL = sink.url
            $0.mailFrom = "Herald <news@herald.test>"
            $0.baseURL = "http://news.herald.test"
            configure(&$0)
        }
    }

    private func registerWithEmail(_ app: TestApp, _ username: String, _ email: String) throws {
        let client = app.client()
        let token = try client.formToken(on: "/register")
        let response = try client.post(
            "/register",
            form: [("csrf_token", token), ("username", username), ("password", "a-long-pass-phrase"), ("email", email)])
        #expect(response.status == 303)
    }

    /// Asks for a link on `/password/forgot` as a browser would.
    private func forgot(_ client: any HTTPTestClient, _ email: String) throws -> TestResponse {
        let token = try client.formToken(on: "/password/forgot")
        return try client.post("/password/forgot", form: [("csrf_token", token), ("email", email)])
    }

    /// The reset link's path, read from the mail the SMTP server received.
    private func linkPath(in message: SMTPSink.Message) throws -> String {
        let text = try #require(message.part("text/plain"))
        let link = try #require(firstMatch(#"(http://news\.herald\.test/password/reset/[A-Za-z0-9_-]{43})"#, in: text))
        return String(link.dropFirst("http://news.herald.test".count))
    }

    private func resetPassword(_ client: any HTTPTestClient, _ path: String, _ password: String) throws -> TestResponse {
        let token = try client.formToken(on: path)
        return try client.post(path, form: [("csrf_token", token), ("new_password", password)])
    }

    @Test func anAnonymousLikeSurvivesAForgottenPasswordResetByEmail() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let slug = try app.firstSlug()
        try registerWithEmail(app, "forgetful", "forgetful@example.com")
        let reader = app.client()
        #expect(try reader.submitLikeForm(slug)["Location"] == "/login")

        let asked = try forgot(reader, "Forgetful@Example.com")
        #expect(asked.status == 303)
        #expect(try reader.follow(asked).text.contains(PasswordResetController.sentMessage))
        let mail = try #require(try sink.messages(1).first)
        #expect(mail.to.contains("forgetful@example.com"))
        #expect(mail.subject == "Reset your password on Herald")
        #expect(mail.part("text/html")?.contains("/password/reset/") == true)
        let path = try linkPath(in: mail)

        let reset = try resetPassword(reader, path, "a-brand-new-phrase")
        #expect(reset.status == 303)
        #expect(reset["Location"] == "/articles/\(slug)#like", "the pending like is performed, as after a login")
        #expect(try reader.likeCount(slug) == 1)
        #expect(try reader.get("/articles/\(slug)").text.contains("action=\"/articles/\(slug)/unlike\""))
        #expect(try app.client().get(path).status == 404, "single use")
        let replay = app.client()
        let token = try replay.formToken(on: "/login")
        #expect(
            try replay.post(path, form: [("csrf_token", token), ("new_password", "another-new-phrase")]).status == 404)
        #expect(try app.client().login("forgetful", "a-brand-new-phrase")["Location"] == "/")
    }

    @Test func anAnonymousCommentSurvivesAResetToo() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let slug = try app.firstSlug()
        try registerWithEmail(app, "writer", "writer@example.com")
        let elsewhere = app.client()
        _ = try elsewhere.login("writer")
        let reader = app.client()
        let token = try reader.formToken(on: "/articles/\(slug)")
        let text = "Written before I remembered I had forgotten my password."
        #expect(
            try reader.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", text)])["Location"]
                == "/login")
        _ = try forgot(reader, "writer@example.com")
        let path = try linkPath(in: try #require(try sink.messages(1).first))
        let reset = try resetPassword(reader, path, "a-brand-new-phrase")
        let location = try #require(reset["Location"])
        #expect(location.hasPrefix("/articles/\(slug)#comment-"))
        let page = try reader.get("/articles/\(slug)").text
        #expect(occurrences(of: text, in: page) == 1, "posted exactly once")
        #expect(try elsewhere.get("/account").status == 303, "every other session of the account ended")
    }

    @Test func theAnswerIsTheSameWhetherOrNotAnAccountUsesTheAddress() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        try registerWithEmail(app, "known", "known@example.com")
        let unknown = try forgot(app.client(), "unknown@example.com")
        let known = try forgot(app.client(), "known@example.com")
        #expect(unknown.status == known.status)
        #expect(unknown["Location"] == known["Location"])
        #expect(try sink.messages(1).count == 1)
        Thread.sleep(forTimeInterval: 0.3)
        #expect(sink.received == 1, "no mail for an address no account uses")
        #expect(try forgot(app.client(), "not an address").status == 422)
    }

    @Test func requestsAreLimitedPerEmailAndPerClientAddress() throws {
        let sink = try SMTPSink()
        let app = try app(sink) {
            $0.accounts.resetsPerEmail = 2
            $0.accounts.resetsPerAddress = 3
        }
        try registerWithEmail(app, "popular", "popular@example.com")
        #expect(try forgot(app.client(), "popular@example.com").status == 303)
        #expect(try forgot(app.client(), "popular@example.com").status == 303)
        let limited = try forgot(app.client(), "popular@example.com")
        #expect(limited.status == 429)
        #expect(limited["Retry-After"] != nil)
        #expect(try forgot(app.client(), "other@example.com").status == 303)
        #expect(try forgot(app.client(), "third@example.com").status == 429, "per client address")
    }

    @Test func linksExpireAfterAnHourAndAreVoidedByAPasswordChange() throws {
        let sink = try SMTPSink()
        let time = TestClock()
        let app = try app(sink) { $0.clock = time.clock }
        try registerWithEmail(app, "timely", "timely@example.com")
        _ = try forgot(app.client(), "timely@example.com")
        _ = try forgot(app.client(), "timely@example.com")
        let messages = try sink.messages(2)
        let first = try linkPath(in: messages[0])
        let second = try linkPath(in: messages[1])
        #expect(try app.client().get(first).status == 200)
        time.advance(3_601)
        let expired = try app.client().get(first)
        #expect(expired.status == 404)
        #expect(expired.text.contains("no longer valid"))
        #expect(expired.text.contains("/password/forgot"))

        _ = try forgot(app.client(), "timely@example.com")
        let third = try linkPath(in: try sink.messages(3)[2])
        let reader = app.client()
        _ = try reader.login("timely")
        let token = try reader.formToken(on: "/account")
        _ = try reader.post(
            "/account/password",
            form: [
                ("csrf_token", token), ("current_password", "a-long-pass-phrase"),
                ("new_password", "changed-it-myself"),
            ])
        #expect(try app.client().get(third).status == 404, "voided by the password change")
        #expect(try app.client().get(second).status == 404)
        #expect(try app.client().get("/password/reset/not-a-token").status == 404)
    }

    @Test func aWeakNewPasswordIsRefusedAndTheLinkStillWorks() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        try registerWithEmail(app, "weak", "weak@example.com")
        _ = try forgot(app.client(), "weak@example.com")
        let path = try linkPath(in: try #require(try sink.messages(1).first))
        let reader = app.client()
        #expect(try resetPassword(reader, path, "short").status == 422)
        #expect(try resetPassword(reader, path, "a-strong-one-now").status == 303)
    }

    @Test func withoutSMTPResetByEmailIsNotOffered() throws {
        let app = try TestApp(server: false, demo: false)
        let page = try app.client().get("/password/forgot")
        #expect(page.status == 200)
        #expect(page.text.contains("Reset by email is not available here"))
        #expect(!page.text.contains("action=\"/password/forgot\""))
    }
}
