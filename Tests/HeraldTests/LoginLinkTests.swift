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

    private func count(_ app: TestApp, _ sql: String, _ values: [SQLValue] = []) throws -> Int {
        try app.app.database.withConnection { try $0.query(sql, values) }.first?.int(0) ?? -1
    }

    /// Issue #34's case: an anonymous comment of 2,000 Chinese characters (6,000 bytes: too big for
    /// the intent cookie, so it is parked) follows the link into a second, empty cookie jar. Opening
    /// the link changes nothing; after logging in there it is shown in full with Confirm, posted
    /// once by the account the link is for, and neither a second Confirm nor the link does more.
    @Test func aLongChineseCommentIsParkedUnderTheLinkAndPostedOnceInAnotherBrowser() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let slug = try app.firstSlug()
        try register(app, "traveller", "traveller@example.com")
        // Varied characters (a repeated phrase would compress into the cookie).
        let text = String(
            (0..<2_000).compactMap { i in Unicode.Scalar(0x4E00 + (i * 7_919) % 20_000).map(Character.init) })
        #expect(text.count == 2_000)
        let laptop = app.client()
        let token = try laptop.formToken(on: "/articles/\(slug)")
        let captured = try laptop.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", text)])
        #expect(captured.status == 303)
        #expect(try count(app, "SELECT count(*) FROM parked_forms") == 1, "too big for the cookie: parked")
        _ = try askForLink(laptop, "traveller@example.com")
        let path = try linkPath(sink, 1)

        let phone = app.client()
        let sessions = try count(app, "SELECT count(*) FROM sessions")
        let comments = try count(app, "SELECT count(*) FROM comments")
        #expect(try phone.get(path).status == 200)
        #expect(try phone.get(path).status == 200, "opened twice, as a scanner and then a person would")
        #expect(try count(app, "SELECT count(*) FROM sessions") == sessions, "GET logs nobody in")
        #expect(try count(app, "SELECT count(*) FROM comments") == comments, "GET posts nothing")

        let login = try press(phone, path)
        #expect(login["Location"] == path + "/confirm")
        #expect(try count(app, "SELECT count(*) FROM comments") == comments, "not before Confirm")
        let confirm = try phone.get(path + "/confirm")
        #expect(confirm.text.contains(text), "all 2,000 characters shown before confirming")
        let done = try press(phone, path + "/confirm")
        #expect(done.status == 303)
        let author = try count(
            app, "SELECT user_id FROM comments WHERE body = ?", [.text(text)])
        let traveller = try #require(try app.app.accounts.store.account(named: "traveller"))
        #expect(author == traveller.user.id, "posted by the account the link is for")
        #expect(try count(app, "SELECT count(*) FROM comments WHERE body = ?", [.text(text)]) == 1)
        #expect(try press(phone, path + "/confirm").status == 404, "a second Confirm does nothing")
        #expect(try phone.get(path).status == 404, "the link is used")
        #expect(try count(app, "SELECT count(*) FROM comments WHERE body = ?", [.text(text)]) == 1)
    }

    @Test func aLongChineseCommentCancelledInAnotherBrowserIsNeverPosted() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let slug = try app.firstSlug()
        try register(app, "hesitant", "hesitant@example.com")
        let text = String(repeating: "颱風警報解除，", count: 250)
        let laptop = app.client()
        let token = try laptop.formToken(on: "/articles/\(slug)")
        _ = try laptop.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", text)])
        _ = try askForLink(laptop, "hesitant@example.com")
        let path = try linkPath(sink, 1)
        let phone = app.client()
        _ = try press(phone, path)
        #expect(try press(phone, path + "/cancel").status == 303)
        #expect(try press(phone, path + "/confirm").status == 404)
        #expect(try count(app, "SELECT count(*) FROM comments WHERE body = ?", [.text(text)]) == 0)
    }

    /// A link asked for an address with no account, with a like pending: the account is made with
    /// the chosen name, and the like is performed for it (the same browser: no Confirm needed).
    @Test func aNewAccountFromALinkPerformsThePendingLike() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let slug = try app.firstSlug()
        let reader = app.client()
        _ = try reader.submitLikeForm(slug)
        _ = try askForLink(reader, "first.time@example.com")
        let path = try linkPath(sink, 1)
        #expect(try reader.get(path).text.contains("Create account"))
        let created = try press(reader, path, [("username", "firsttimer")])
        #expect(created.status == 303)
        #expect(created["Location"] == "/articles/\(slug)#like")
        #expect(try reader.likeCount(slug) == 1)
        #expect(try reader.get("/me/likes").text.contains("/articles/\(slug)"))
    }
}
