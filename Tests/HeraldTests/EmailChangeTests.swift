import Foundation
import HTTP
import TestSupport
import Testing

@testable import Herald

/// SPEC third wave, "The pending action belongs to the browser that began it" (issue #28): an
/// email change asks for the current password, counts only once the new address confirms a
/// mailed link, tells the old address, and answers the same whether or not the address is taken.
/// Against a real SMTP server (aiosmtpd).
@Suite struct EmailChangeTests {
    static let password = "a-long-pass-phrase"
    static let base = "http://news.herald.test"

    private func app(_ sink: SMTPSink, configure: (inout Configuration) -> Void = { _ in }) throws -> TestApp {
        try TestApp(server: false, demo: false) {
            $0.smtpURL = sink.url
            $0.mailFrom = "Herald <news@herald.test>"
            $0.baseURL = Self.base
            configure(&$0)
        }
    }

    /// A new browser logged in as a new account with `email`.
    private func reader(_ app: TestApp, _ username: String, email: String? = nil) throws -> any HTTPTestClient {
        let client = app.client()
        let token = try client.formToken(on: "/register")
        var form = [("csrf_token", token), ("username", username), ("password", Self.password)]
        if let email { form.append(("email", email)) }
        #expect(try client.post("/register", form: form).status == 303)
        return client
    }

    /// Submits the account page's email form.
    private func changeEmail(_ client: any HTTPTestClient, _ email: String, password: String? = Self.password) throws
        -> TestResponse
    {
        var form = [("csrf_token", try client.formToken(on: "/account")), ("email", email)]
        if let password { form.append(("current_password", password)) }
        return try client.post("/account/email", form: form)
    }

    /// The confirmation link's path, read from the mail's plain-text part.
    private func linkPath(in message: SMTPSink.Message) throws -> String {
        let text = try #require(message.part("text/plain"))
        let link = try #require(
            firstMatch(#"(http://news\.herald\.test/account/email/confirm/[A-Za-z0-9_-]{43})"#, in: text))
        return String(link.dropFirst(Self.base.count))
    }

    /// Presses "Confirm this address" on the link's page.
    private func confirm(_ client: any HTTPTestClient, _ path: String) throws -> TestResponse {
        try client.post(path, form: [("csrf_token", try client.formToken(on: path))])
    }

    /// The account's address as stored (what resets and notices use).
    private func storedEmail(_ app: TestApp, _ username: String) throws -> String? {
        try app.app.accounts.store.account(named: username)?.email
    }

    /// The email field's value on the account page.
    private func emailField(_ client: any HTTPTestClient) throws -> String? {
        firstMatch(#"name="email" value="([^"]*)""#, in: try client.get("/account").text)
    }

    // MARK: The password

    @Test func aChangeNeedsTheCurrentPasswordAndAWrongOneCountsAsAFailedLogin() throws {
        let sink = try SMTPSink()
        let app = try app(sink) { $0.accounts.loginFailuresPerUsername = 2 }
        let reader = try reader(app, "careful", email: "old@example.com")

        let missing = try changeEmail(reader, "new@example.com", password: nil)
        #expect(missing.status == 422)
        #expect(hasFieldError("email", in: missing.text))
        #expect(missing.text.contains("Please type your current password"))
        #expect(missing.text.contains("name=\"email\" value=\"new@example.com\""), "what was typed is kept")

        let wrong = try changeEmail(reader, "new@example.com", password: "not-my-password")
        #expect(wrong.status == 422)
        #expect(hasFieldError("email", in: wrong.text))
        #expect(wrong.text.contains("Your current password is not right"))
        #expect(wrong.text.contains("name=\"email\" value=\"new@example.com\""))
        #expect(!wrong.text.contains("data-pending-email"), "nothing is waiting")
        #expect(try storedEmail(app, "careful") == "old@example.com")

        _ = try changeEmail(reader, "new@example.com", password: "another-guess")
        #expect(try app.client().login("careful").status == 429, "two wrong passwords reached the login limit")
        #expect(try changeEmail(reader, "new@example.com").status == 429, "and the right one waits too")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(sink.received == 0, "no mail for any of them")
    }

    // MARK: The link

    @Test func theLinkGoesToTheNewAddressAndOnlyItsPOSTChangesIt() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let reader = try reader(app, "mover", email: "old@example.com")

        let asked = try changeEmail(reader, "  New@Example.COM ")
        #expect(asked.status == 303)
        #expect(asked["Location"] == "/account")
        let page = try reader.follow(asked).text
        #expect(
            flashText(in: page)
                == "Check your inbox at new@example.com: the change takes effect when you open the link we sent.")
        #expect(page.contains("data-pending-email=\"new@example.com\""), "the page says what is waiting")
        #expect(page.contains("name=\"email\" value=\"old@example.com\""), "the address is still the old one")
        #expect(try storedEmail(app, "mover") == "old@example.com")

        let mail = try #require(try sink.messages(1).first)
        #expect(mail.recipients == ["new@example.com"], "to the new address only")
        #expect(mail.subject == "Confirm your new email address on Herald")
        #expect(mail.part("text/html")?.contains("\(Self.base)/account/email/confirm/") == true)
        let path = try linkPath(in: mail)

        // What a mail scanner does: follow the link. It changes nothing.
        for _ in 0..<2 {
            let shown = try app.client().get(path)
            #expect(shown.status == 200)
            #expect(shown.text.contains("<strong data-new-email>new@example.com</strong>"))
            #expect(shown.text.contains("<form method=\"post\" action=\"\(path)\""))
            #expect(shown.text.contains("Confirm this address"))
        }
        #expect(try storedEmail(app, "mover") == "old@example.com", "a GET changes nothing")
        #expect(sink.received == 1)

        let confirmed = try confirm(reader, path)
        #expect(confirmed.status == 303)
        #expect(confirmed["Location"] == "/account", "logged in as that account: back to its page")
        let after = try reader.follow(confirmed).text
        #expect(flashText(in: after) == "Your email address is now new@example.com.")
        #expect(after.contains("name=\"email\" value=\"new@example.com\""))
        #expect(!after.contains("data-pending-email"))
        #expect(try storedEmail(app, "mover") == "new@example.com")

        let notice = try sink.messages(2)[1]
        #expect(notice.recipients == ["old@example.com"], "the old address is told")
        #expect(notice.subject == "Your email address on Herald was changed")
        #expect(notice.part("text/plain")?.contains("was changed to new@example.com") == true)
        #expect(notice.part("text/plain")?.contains("change your password") == true)
        #expect(!notice.rawText.contains("/account/email/confirm/"), "the old address never sees the link")

        // Used: the link is dead, either way it is opened.
        let used = try app.client().get(path)
        #expect(used.status == 404)
        #expect(used.text.contains("no longer valid"))
        let replay = app.client()
        let token = try replay.formToken(on: "/login")
        #expect(try replay.post(path, form: [("csrf_token", token)]).status == 404)
        #expect(try storedEmail(app, "mover") == "new@example.com")
    }

    @Test func confirmingInAnotherBrowserNeedsNoLoginAndLandsOnLogin() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let reader = try reader(app, "phoneuser")
        #expect(try changeEmail(reader, "phone@example.com").status == 303)
        let path = try linkPath(in: try #require(try sink.messages(1).first))

        // Without the form's token and without Fetch Metadata, the cross-site check refuses it.
        let phone = app.client()
        #expect(try phone.post(path, form: [("email", "x")]).status == 403)
        #expect(try storedEmail(app, "phoneuser") == nil)

        let confirmed = try confirm(phone, path)
        #expect(confirmed.status == 303)
        #expect(confirmed["Location"] == "/login")
        #expect(
            flashText(in: try phone.follow(confirmed).text)
                == "The email address of “phoneuser” is now phone@example.com. You can log in.")
        #expect(try storedEmail(app, "phoneuser") == "phone@example.com")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(sink.received == 1, "no notice: the account had no address before")
    }

    // MARK: Taken or not, the same answer

    @Test func aTakenAddressGetsTheSameAnswerAndNoMail() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        _ = try reader(app, "holder", email: "taken@example.com")
        let prober = try reader(app, "prober", email: "prober@example.com")

        let free = try changeEmail(prober, "free@example.com")
        let freePage = try prober.follow(free).text
        let taken = try changeEmail(prober, "TAKEN@example.com")
        let takenPage = try prober.follow(taken).text

        #expect(taken.status == free.status)
        #expect(taken["Location"] == free["Location"])
        #expect(taken.body.isEmpty == free.body.isEmpty)
        #expect(
            flashText(in: takenPage)?.replacing("taken@", with: "free@") == flashText(in: freePage),
            "the same words, but for the address")
        #expect(takenPage.contains("data-pending-email=\"taken@example.com\""), "shown waiting, like a free one")

        let mail = try #require(try sink.messages(1).first)
        #expect(mail.recipients == ["free@example.com"])
        Thread.sleep(forTimeInterval: 0.3)
        #expect(sink.received == 1, "nothing is sent to an address another account holds")
        #expect(try storedEmail(app, "holder") == "taken@example.com")
        #expect(try storedEmail(app, "prober") == "prober@example.com")
        // The free address's link was replaced by the newer request: it confirms nothing now.
        #expect(try app.client().get(try linkPath(in: mail)).status == 404)
    }

    @Test func anAddressTakenBeforeTheConfirmationIs409AndChangesNothing() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let slow = try reader(app, "slow", email: "slow@example.com")
        #expect(try changeEmail(slow, "wanted@example.com").status == 303)
        let path = try linkPath(in: try #require(try sink.messages(1).first))
        _ = try reader(app, "quick", email: "wanted@example.com")

        let late = try confirm(slow, path)
        #expect(late.status == 409)
        #expect(late.text.contains("Another account started using wanted@example.com"))
        #expect(try storedEmail(app, "slow") == "slow@example.com")
        #expect(try storedEmail(app, "quick") == "wanted@example.com")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(sink.received == 1, "no notice: nothing changed")
    }

    // MARK: Replacing, expiring, voiding

    @Test func aNewerRequestReplacesTheOlderAndLinksLastADay() throws {
        let sink = try SMTPSink()
        let time = TestClock()
        let app = try app(sink) { $0.clock = time.clock }
        let reader = try reader(app, "ditherer")
        _ = try changeEmail(reader, "first@example.com")
        _ = try changeEmail(reader, "second@example.com")
        let messages = try sink.messages(2)
        let first = try linkPath(in: messages[0])
        let second = try linkPath(in: messages[1])
        #expect(try app.client().get(first).status == 404, "replaced")
        #expect(try reader.get("/account").text.contains("data-pending-email=\"second@example.com\""))

        time.advance(86_400 - 60)
        #expect(try app.client().get(second).status == 200, "still live just under a day later")
        time.advance(61)
        #expect(try app.client().get(second).status == 404, "a day old: expired")
        #expect(try confirm(reader, second).status == 404)
        #expect(!(try reader.get("/account").text.contains("data-pending-email")), "no longer shown waiting")
        #expect(try storedEmail(app, "ditherer") == nil)
    }

    @Test func typingTheCurrentAddressAgainKeepsItAndDropsAWaitingChange() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let reader = try reader(app, "settled", email: "home@example.com")
        _ = try changeEmail(reader, "away@example.com")
        let path = try linkPath(in: try #require(try sink.messages(1).first))
        #expect(try changeEmail(reader, "Home@Example.com", password: "not-my-password").status == 422)
        let kept = try changeEmail(reader, "Home@Example.com")
        #expect(kept.status == 303)
        #expect(flashText(in: try reader.follow(kept).text) == "Your email address stays home@example.com.")
        #expect(try app.client().get(path).status == 404, "the waiting change is dropped")
        #expect(try storedEmail(app, "settled") == "home@example.com")
        Thread.sleep(forTimeInterval: 0.3)
        #expect(sink.received == 1, "no link for the address the account already has")
    }

    @Test func aPasswordChangeVoidsAWaitingChange() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let reader = try reader(app, "locked", email: "mine@example.com")
        _ = try changeEmail(reader, "intruder@example.com")
        let path = try linkPath(in: try #require(try sink.messages(1).first))
        let token = try reader.formToken(on: "/account")
        let changed = try reader.post(
            "/account/password",
            form: [("csrf_token", token), ("current_password", Self.password), ("new_password", "a-brand-new-phrase")])
        #expect(changed.status == 303)
        #expect(try app.client().get(path).status == 404, "voided with the old password")
        #expect(try storedEmail(app, "locked") == "mine@example.com")
    }

    @Test func deletingTheAccountDeletesItsWaitingChange() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let leaver = try reader(app, "leaver")
        _ = try changeEmail(leaver, "gone@example.com")
        _ = try sink.messages(1)
        func waiting() throws -> Int {
            try app.app.database.withConnection { try $0.query("SELECT count(*) FROM email_changes", []) }.first?
                .int(0) ?? -1
        }
        #expect(try waiting() == 1)
        let token = try leaver.formToken(on: "/account")
        #expect(
            try leaver.post("/account/delete", form: [("csrf_token", token), ("password", Self.password)]).status == 303
        )
        #expect(try waiting() == 0)
    }

    @Test func aBannedAccountsLinkChangesNothing() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let troll = try reader(app, "troll", email: "troll@example.com")
        _ = try changeEmail(troll, "elsewhere@example.com")
        let path = try linkPath(in: try #require(try sink.messages(1).first))
        #expect(try app.moderator().postForm("/users/troll/ban", on: "/", ModerationTests.permanentBan).status == 303)
        let refused = try confirm(app.client(), path)
        #expect(refused.status == 403)
        #expect(refused.text.contains("suspended"))
        #expect(try storedEmail(app, "troll") == "troll@example.com")
    }

    // MARK: Removing

    @Test func removingNeedsThePasswordAndIsImmediate() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let reader = try reader(app, "quitter", email: "quitter@example.com")
        _ = try changeEmail(reader, "pending@example.com")
        let link = try linkPath(in: try #require(try sink.messages(1).first))

        let wrong = try changeEmail(reader, "", password: "not-my-password")
        #expect(wrong.status == 422)
        #expect(hasFieldError("email", in: wrong.text))
        #expect(try storedEmail(app, "quitter") == "quitter@example.com")
        #expect(try changeEmail(reader, "", password: nil).status == 422)

        let removed = try changeEmail(reader, "")
        #expect(removed.status == 303)
        #expect(removed["Location"] == "/account")
        #expect(flashText(in: try reader.follow(removed).text) == "Your account has no email address now.")
        #expect(try storedEmail(app, "quitter") == nil, "at once, no link")
        #expect(try emailField(reader) == "")
        #expect(try app.client().get(link).status == 404, "the change that was waiting is dropped")

        let notice = try sink.messages(2)[1]
        #expect(notice.recipients == ["quitter@example.com"])
        #expect(notice.subject == "Your email address was removed from Herald")
    }

    // MARK: Invalid, limited, without mail

    @Test func invalidAddressesAre422WithWhatWasTyped() throws {
        let sink = try SMTPSink()
        let app = try app(sink)
        let reader = try reader(app, "typist")
        for bad in [
            "no-at-sign", "two@@example.com", "a@nodot", "spa ce@example.com", "x@.com",
            String(repeating: "a", count: 250) + "@x.io",
        ] {
            let answer = try changeEmail(reader, bad)
            #expect(answer.status == 422, "\(bad)")
            #expect(hasFieldError("email", in: answer.text))
        }
        #expect(try changeEmail(reader, "no-at-sign").text.contains("value=\"no-at-sign\""))
        Thread.sleep(forTimeInterval: 0.3)
        #expect(sink.received == 0)
    }

    @Test func requestsAreLimitedPerAccountAndPerAddress() throws {
        let sink = try SMTPSink()
        let app = try app(sink) {
            $0.accounts.emailChangesPerAccount = 2
            $0.accounts.emailChangesPerEmail = 3
        }
        let busy = try reader(app, "busy")
        #expect(try changeEmail(busy, "one@example.com").status == 303)
        #expect(try changeEmail(busy, "two@example.com").status == 303)
        let limited = try changeEmail(busy, "three@example.com")
        #expect(limited.status == 429)
        #expect(limited["Retry-After"] != nil)
        #expect(limited.text.contains("Too many email changes"))

        // Per address, whoever asks (and whoever holds it: taken or free, the limit is the same).
        _ = try reader(app, "owner", email: "popular@example.com")
        for name in ["fan1", "fan2", "fan3"] {
            #expect(try changeEmail(try reader(app, name), "popular@example.com").status == 303, "\(name)")
        }
        #expect(try changeEmail(try reader(app, "fan4"), "popular@example.com").status == 429)
        #expect(try changeEmail(try reader(app, "fan5"), "unpopular@example.com").status == 303)
    }

    @Test func withoutMailANewAddressIsRefusedButRemovalWorks() throws {
        let app = try TestApp(server: false, demo: false)
        let reader = try reader(app, "offline", email: "offline@example.com")
        #expect(try reader.get("/account").text.contains("This site sends no email"))
        let refused = try changeEmail(reader, "new@example.com")
        #expect(refused.status == 422)
        #expect(hasFieldError("email", in: refused.text))
        #expect(refused.text.contains("This site sends no email, so a new address cannot be confirmed here"))
        #expect(refused.text.contains("value=\"new@example.com\""))
        #expect(try storedEmail(app, "offline") == "offline@example.com")
        #expect(!(try reader.get("/account").text.contains("data-pending-email")))

        #expect(try changeEmail(reader, "", password: "wrong-password").status == 422)
        #expect(try changeEmail(reader, "").status == 303)
        #expect(try storedEmail(app, "offline") == nil)
    }

}
