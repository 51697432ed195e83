import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// SPEC third wave, "Sign in by email link" (issue #34), against a real SMTP server (aiosmtpd):
/// the link never logs in by itself; its POST does; the pending action follows the link into the
/// same browser (performed) or another (shown, done only after Confirm).
@Suite struct LoginLinkTests {
    private func app(_ sink: SMTPSink) throws -> TestApp {
        try TestApp(server: false) {
            $0.smtpURL = sink.url
            $0.mailFrom = "Herald <news@herald.test>"
            $0.baseURL = "http://news.herald.test"
        }
    }

    private func register(_ app: TestApp, _ name: String, _ email: String) throws {
        let client = app.client()
        let token = try client.formToken(on: "/register")
        let response = try client.post(
            "/register",
            form: [("csrf_token", token), ("username", name), ("password", "a-long-pass-phrase"), ("email", email)])
        #expect(response.status == 303)
    }

    private func askForLink(_ client: any HTTPTestClient, _ email: String) throws -> TestResponse {
        let token = try client.formToken(on: "/login/link")
        return try client.post("/login/link", form: [("csrf_token", token), ("email", email)])
    }

    /// The link's path, read from the `index`-th mail the server received.
    private func linkPath(_ sink: SMTPSink, _ count: Int) throws -> String {
        let mail = try #require(try sink.messages(count).last)
        let text = try #require(mail.part("text/plain"))
        let link = try #require(firstMatch(#"(http://news\.herald\.test/login/link/[A-Za-z0-9_-]{43})"#, in: text))
        return String(link.dropFirst("http://news.herald.test".count))
    }

    private func press(_ client: any HTTPTestClient, _ path: String, _ fields: [(String, String)] = []) throws
        -> TestResponse
    {
        let token = try client.formToken(on: path)
        return try client.post(path, form: [("csrf_token", token)] + fields)
    }

    @Test func anAnonymousLikeFollowsTheLinkInTheSameBrowser() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let slug = try app.firstSlug()
        try register(app, "linked", "linked@example.com")
        let reader = app.client()
        #expect(try reader.submitLikeForm(slug)["Location"] == "/login")
        #expect(try reader.get("/login/link").text.contains("Log in to like"), "the pending line stays")
        let asked = try askForLink(reader, "Linked@Example.com")
        #expect(asked.status == 303)
        #expect(try reader.follow(asked).text.contains(LoginLinkController.sentMessage))
        let path = try linkPath(sink, 1)

        // Opening the link logs nobody in (mail scanners follow links).
        let page = try reader.get(path)
        #expect(page.status == 200)
        #expect(page.text.contains("Log in as linked"))
        #expect(try reader.get("/account")["Location"]?.hasPrefix("/login") == true, "still logged out")

        let login = try press(reader, path)
        #expect(login.status == 303)
        #expect(login["Location"] == "/articles/\(slug)#like")
        #expect(try reader.likeCount(slug) == 1)
        #expect(try reader.get(path).status == 404, "used once")
    }

    @Test func inAnotherBrowserTheCarriedCommentIsShownAndPostedOnlyAfterConfirm() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let slug = try app.firstSlug()
        try register(app, "commuter", "commuter@example.com")
        let laptop = app.client()
        let token = try laptop.formToken(on: "/articles/\(slug)")
        let text = "Written on the laptop, sent from the phone.\n\nSecond paragraph."
        _ = try laptop.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", text)])
        _ = try askForLink(laptop, "commuter@example.com")
        let path = try linkPath(sink, 1)

        let phone = app.client()
        #expect(try phone.get(path).text.contains("This link carries something you started"))
        let login = try press(phone, path)
        #expect(login["Location"] == path + "/confirm", "asked to confirm, not performed")
        #expect(!(try app.client().get("/articles/\(slug)").text.contains("Written on the laptop")))
        let confirm = try phone.get(path + "/confirm")
        #expect(confirm.text.contains("data-carried-action"))
        #expect(confirm.text.contains(escapeHTML(text)), "the text is shown in full before confirming")
        let done = try press(phone, path + "/confirm")
        #expect(done.status == 303)
        #expect(done["Location"]?.hasPrefix("/articles/\(slug)") == true)
        #expect(try app.client().get("/articles/\(slug)").text.contains("Written on the laptop"))
        // Once only: a second confirm finds nothing, and the laptop's own login performs nothing more.
        #expect(try press(phone, path + "/confirm").status == 404)
        let laptopLogin = try laptop.login("commuter")
        #expect(laptopLogin["Location"] == "/")
        #expect(
            try app.client().get("/articles/\(slug)").text.components(separatedBy: "Written on the laptop").count == 2)
    }

    @Test func cancellingInAnotherBrowserDoesNothing() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let slug = try app.firstSlug()
        try register(app, "careful", "careful@example.com")
        let laptop = app.client()
        _ = try laptop.submitLikeForm(slug)
        _ = try askForLink(laptop, "careful@example.com")
        let path = try linkPath(sink, 1)
        let phone = app.client()
        _ = try press(phone, path)
        #expect(try press(phone, path + "/cancel")["Location"] == "/")
        #expect(try phone.likeCount(slug) == 0)
        #expect(try phone.get(path + "/confirm").status == 404)
    }

    @Test func anAddressWithNoAccountGetsTheSameAnswerAndCreatesOneWithAName() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        try register(app, "existing", "existing@example.com")
        let first = try askForLink(app.client(), "existing@example.com")
        let second = try askForLink(app.client(), "newcomer@example.com")
        #expect(first.status == second.status && first["Location"] == second["Location"], "the same answer")
        let path = try linkPath(sink, 2)
        let browser = app.client()
        let page = try browser.get(path)
        #expect(page.text.contains("Create account"))
        #expect(try press(browser, path, [("username", "x")]).status == 422, "a name that breaks the rules")
        #expect(try press(browser, path, [("username", "existing")]).status == 409)
        let created = try press(browser, path, [("username", "newcomer")])
        #expect(created.status == 303)
        #expect(try browser.get("/account").text.contains("newcomer"))
        #expect(try app.app.accounts.store.account(named: "newcomer")?.email == "newcomer@example.com")
        // No password was set: none logs in.
        #expect(try app.client().login("newcomer", "a-long-pass-phrase")["Location"] == nil)
    }

    @Test func unknownExpiredAndMalformedLinksAre404() throws {
        let sink = try SMTPSink()
        let clock = TestClock()
        let app = try TestApp(server: false) {
            $0.smtpURL = sink.url
            $0.mailFrom = "news@herald.test"
            $0.baseURL = "http://news.herald.test"
            $0.clock = clock.clock
        }
        try register(app, "late", "late@example.com")
        _ = try askForLink(app.client(), "late@example.com")
        let path = try linkPath(sink, 1)
        clock.advance(15 * 60 + 1)
        #expect(try app.client().get(path).status == 404)
        #expect(try app.client().get("/login/link/not-a-token").status == 404)
        #expect(try app.client().get("/login/link/" + String(repeating: "A", count: 43)).status == 404)
    }
}
