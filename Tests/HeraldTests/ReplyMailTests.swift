import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Herald

/// Replies by mail (issue #34, SPEC third wave): the account page's switch, the digest rounds
/// (one mail per 15 minutes holding every reply not yet mailed, each reply once), the mail's
/// RFC 8058 unsubscribe headers, and the unsubscribe link that works without a session — against
/// a real server on a loopback port and a real SMTP server (aiosmtpd).
@Suite struct ReplyMailTests {
    static let base = "http://news.herald.test"

    private struct Site {
        let sink: SMTPSink
        let clock: TestClock
        let app: TestApp
        var digests: ReplyDigestSender { app.app.replyDigests! }

        init() throws {
            let sink = try SMTPSink()
            let clock = TestClock()
            self.sink = sink
            self.clock = clock
            app = try TestApp {
                $0.smtpURL = sink.url
                $0.mailFrom = "Herald <news@herald.test>"
                $0.baseURL = ReplyMailTests.base
                $0.clock = clock.clock
            }
        }

        /// Runs one round now and waits until what it queued has reached the sink; the mails queued.
        @discardableResult
        func round() throws -> Int {
            let queued = digests.runOnce(now: clock.clock.now())
            #expect(app.app.mailer?.waitUntilIdle(timeout: .seconds(10)) == true)
            return queued
        }

        func account(_ name: String) throws -> StoredAccount {
            try #require(try app.app.accounts.store.account(named: name))
        }

        /// A reader logged in, with `name@example.com` confirmed (as a mailed link confirms it).
        func reader(_ name: String, confirmed: Bool = true) throws -> any HTTPTestClient {
            let client = app.client()
            #expect(try client.register(name).status == 303)
            let id = try account(name).user.id
            #expect(try app.app.accounts.store.setEmail(userID: id, to: "\(name)@example.com", confirmed: confirmed))
            return client
        }

        func setReplyMail(_ client: any HTTPTestClient, _ on: Bool) throws -> TestResponse {
            let token = try client.formToken(on: "/account")
            return try client.post("/account/reply-mail", form: [("csrf_token", token), ("mail", on ? "on" : "off")])
        }

        /// "ada", with reply mail on and a comment on the first article to be replied to.
        func subscriberWithComment() throws -> (reader: any HTTPTestClient, slug: String, comment: Int) {
            let slug = try app.firstSlug()
            let ada = try reader("ada")
            #expect(try setReplyMail(ada, true).status == 303)
            let comment = try #require(commentID(in: try ada.postComment(slug, "A thought.")["Location"]))
            return (ada, slug, comment)
        }
    }

    /// `body` replies to comment `id` as `client`; the reply's id.
    private func reply(_ client: any HTTPTestClient, to id: Int, on slug: String, _ body: String) throws -> Int {
        try #require(commentID(in: try client.reply(to: id, on: slug, body)["Location"]))
    }

    private func occurrences(of needle: String, in text: String) -> Int {
        text.components(separatedBy: needle).count - 1
    }

    @Test func turningItOnNeedsAConfirmedAddress() throws {
        let site = try Site()
        let reader = site.app.client()
        let token = try reader.formToken(on: "/register")
        _ = try reader.post(
            "/register",
            form: [
                ("csrf_token", token), ("username", "typed"), ("password", "a-long-pass-phrase"),
                ("email", "typed@example.com"),
            ])
        // Typed at registration: not confirmed, so the switch is not offered, and says why.
        let page = try reader.get("/account").text
        #expect(page.contains("id=\"reply-mail-unavailable\""))
        #expect(!page.contains("action=\"/account/reply-mail\""))
        let refused = try site.setReplyMail(reader, true)
        #expect(refused.status == 422)
        #expect(refused.text.contains("id=\"reply-mail-error\""))
        #expect(try site.account("typed").mailsReplies == false)

        // A sign-in link opened from that mailbox confirms it.
        let asking = site.app.client()
        let ask = try asking.formToken(on: "/login/link")
        #expect(
            try asking.post("/login/link", form: [("csrf_token", ask), ("email", "typed@example.com")]).status == 303)
        let mail = try #require(try site.sink.messages(1).first)
        let link = try #require(
            firstMatch(#"http://news\.herald\.test(/login/link/[A-Za-z0-9_-]{43})"#, in: mail.part("text/plain") ?? ""))
        let login = try asking.post(link, form: [("csrf_token", try asking.formToken(on: link))])
        #expect(login.status == 303)
        #expect(try site.account("typed").emailConfirmed)

        #expect(try reader.get("/account").text.contains("data-reply-mail=\"off\""), "off by default")
        let on = try site.setReplyMail(reader, true)
        #expect(on.status == 303)
        #expect(on["Location"] == "/account#reply-mail")
        #expect(try site.account("typed").mailsReplies)
        #expect(try reader.get("/account").text.contains("data-reply-mail=\"on\""))
        #expect(try site.setReplyMail(reader, false).status == 303)
        #expect(try site.account("typed").mailsReplies == false)
        let mine = try reader.formToken(on: "/account")
        #expect(try reader.post("/account/reply-mail", form: [("csrf_token", mine), ("mail", "maybe")]).status == 400)
    }

    /// The digest is written in the interface language the reader chose (kept on the account by
    /// the switcher), since no request is there to ask: here Traditional Chinese.
    @Test func theDigestIsInTheReadersChosenLanguage() throws {
        let site = try Site()
        let slug = try site.app.firstSlug()
        let ada = try site.reader("ada")
        #expect(try site.setReplyMail(ada, true).status == 303)
        #expect(try ada.post("/language", form: [("lang", "zh-Hant")]).status == 303)
        let comment = try #require(commentID(in: try ada.postComment(slug, "A thought.")["Location"]))
        let bob = try site.reader("bob")
        site.clock.advance(60)
        _ = try reply(bob, to: comment, on: slug, "A reply.")
        #expect(try site.round() == 1)
        let mail = try #require(try site.sink.messages(1).first)
        #expect(mail.subject.contains("則新回覆"), "\(mail.subject)")
        let text = try #require(mail.part("text/plain"))
        #expect(text.contains("ada 你好") && text.contains("bob 寫道"))
        #expect(text.contains("取消訂閱"))
    }

    /// A ban that ran out is no ban (`User.activeBan(at:)`, and its SQL form in the digest's query):
    /// a reply by a reader whose one-day ban ended is mailed; one under a ban still in force is not.
    @Test func aReplyByAReaderWhoseBanRanOutIsMailed() throws {
        let site = try Site()
        let (_, slug, comment) = try site.subscriberWithComment()
        let gus = try site.reader("gus")
        let hal = try site.reader("hal")
        site.clock.advance(60)
        _ = try reply(gus, to: comment, on: slug, "Gus, whose ban ran out.")
        _ = try reply(hal, to: comment, on: slug, "Hal, banned for another hour.")
        let now = Int64(site.clock.clock.now())
        try site.app.app.database.write { connection in
            try connection.query(
                "UPDATE users SET banned = 1, banned_until = ? WHERE username = 'gus'", [.integer(now)])
            try connection.query(
                "UPDATE users SET banned = 1, banned_until = ? WHERE username = 'hal'", [.integer(now + 3_600)])
        }
        #expect(try site.round() == 1)
        let text = try #require(try site.sink.messages(1).first?.part("text/plain"))
        #expect(text.contains("Gus, whose ban ran out."))
        #expect(!text.contains("Hal, banned"))
    }

    @Test func threeRepliesMakeOneMailAndALaterReplyTheNextOne() throws {
        let site = try Site()
        let slug = try site.app.firstSlug()
        let ada = try site.reader("ada")
        #expect(try site.setReplyMail(ada, true).status == 303)
        let comment = try #require(commentID(in: try ada.postComment(slug, "My first thought.")["Location"]))
        let bob = try site.reader("bob")
        let cyd = try site.reader("cyd")
        let dee = try site.reader("dee")
        let eve = try site.reader("eve")
        let fay = try site.reader("fay")
        site.clock.advance(60)
        let replies = [
            try reply(bob, to: comment, on: slug, "Bob agrees, mostly."),
            try reply(cyd, to: comment, on: slug, "Cy disagrees\nover two lines."),
            try reply(dee, to: comment, on: slug, "Dee asks <b>a question</b>?"),
        ]
        // Not mailed: her own reply to herself, a hidden reply, a reply by a banned reader.
        _ = try reply(ada, to: comment, on: slug, "Ada talking to herself.")
        let hidden = try reply(eve, to: comment, on: slug, "Eve's reply, hidden by a moderator.")
        _ = try reply(fay, to: comment, on: slug, "Fay's reply, then Fay was banned.")
        try site.app.app.database.write { connection in
            try connection.query("UPDATE comments SET hidden = 1 WHERE id = ?", [.integer(Int64(hidden))])
            try connection.query("UPDATE users SET banned = 1 WHERE username = 'fay'")
        }

        #expect(try site.round() == 1, "one mail for three replies")
        let first = try #require(try site.sink.messages(1).first)
        #expect(first.recipients == ["ada@example.com"])
        #expect(first.contentType == "multipart/alternative")
        #expect(first.defects.isEmpty)
        let title = try #require(try site.app.app.articles.article(slug: slug)?.title)
        #expect(first.subject.contains("3 replies") && first.subject.contains(title), "\(first.subject)")
        let text = try #require(first.part("text/plain"))
        let html = try #require(first.part("text/html"))
        #expect(html.contains("Dee asks &lt;b&gt;a question&lt;/b&gt;?") && !html.contains("<b>a question"), "escaped")
        #expect(text.contains(title))
        for (id, body) in zip(
            replies, ["Bob agrees, mostly.", "Cy disagrees over two lines.", "Dee asks <b>a question</b>?"])
        {
            #expect(occurrences(of: body, in: text) == 1, "each reply once: \(body)")
            #expect(occurrences(of: "\(Self.base)/articles/\(slug)#comment-\(id)", in: text) == 1)
        }
        for author in ["bob", "cyd", "dee"] { #expect(text.contains("\(author) wrote:")) }
        #expect(!text.contains("talking to herself") && !text.contains("Eve's reply") && !text.contains("Fay's reply"))
        // RFC 8058: both headers, the link from the configured base URL.
        let unsubscribe = try #require(first.header("List-Unsubscribe"))
        #expect(unsubscribe.hasPrefix("<\(Self.base)/mail/unsubscribe/") && unsubscribe.hasSuffix(">"))
        #expect(first.header("List-Unsubscribe-Post") == "List-Unsubscribe=One-Click")

        // Nothing new: no mail. A fourth reply within 15 minutes of the first mail waits…
        #expect(try site.round() == 0)
        site.clock.advance(5 * 60)
        let fourth = try reply(bob, to: comment, on: slug, "Bob, once more.")
        #expect(try site.round() == 0, "at most one mail per 15 minutes")
        #expect(site.sink.received == 1)
        // …and goes alone in the next mail once they have passed.
        site.clock.advance(10 * 60)
        #expect(try site.round() == 1)
        let second = try #require(try site.sink.messages(2).last)
        let secondText = try #require(second.part("text/plain"))
        #expect(secondText.contains("Bob, once more."))
        #expect(secondText.contains("#comment-\(fourth)"))
        for body in ["Bob agrees", "Cy disagrees", "Dee asks"] { #expect(!secondText.contains(body)) }
        #expect(second.subject.hasPrefix("A reply"))
        site.clock.advance(60 * 60)
        #expect(try site.round() == 0)
        #expect(site.sink.received == 2)
    }

    @Test func onlyRepliesToHerselfSendNothing() throws {
        let site = try Site()
        let (ada, slug, comment) = try site.subscriberWithComment()
        _ = try reply(ada, to: comment, on: slug, "And a second thought of mine.")
        #expect(try site.round() == 0)
        #expect(site.sink.received == 0)
    }

    @Test func unsubscribingWorksWithoutACookieAndStopsTheNextMail() throws {
        let site = try Site()
        let (ada, slug, comment) = try site.subscriberWithComment()
        let bob = try site.reader("bob")
        _ = try reply(bob, to: comment, on: slug, "A reply.")
        #expect(try site.round() == 1)
        let mail = try #require(try site.sink.messages(1).first)
        let header = try #require(mail.header("List-Unsubscribe"))
        let path = String(header.dropFirst("<\(Self.base)".count).dropLast())
        #expect(path.hasPrefix("/mail/unsubscribe/"))
        #expect(mail.part("text/plain")?.contains(Self.base + path) == true, "the link is in the text too")

        // GET changes nothing: it shows a button.
        let page = try site.app.client().get(path)
        #expect(page.status == 200)
        #expect(page.text.contains("<form method=\"post\" action=\"\(path)\">"))
        #expect(try site.account("ada").mailsReplies)

        // Bad tokens: 404, nothing changed.
        let id = try site.account("ada").user.id
        let mac = path.split(separator: ".").last.map(String.init) ?? ""
        for bogus in [
            "/mail/unsubscribe/\(id).\(String(repeating: "A", count: 43))", "/mail/unsubscribe/\(id + 1).\(mac)",
            "/mail/unsubscribe/not-a-token", "/mail/unsubscribe/\(id)",
            "/mail/unsubscribe/" + String(repeating: "9", count: 90),
        ] {
            #expect(
                try site.app.client().post(bogus, form: [("List-Unsubscribe", "One-Click")]).status == 404, "\(bogus)")
            #expect(try site.app.client().get(bogus).status == 404)
        }
        #expect(try site.account("ada").mailsReplies)

        // A browser saying the POST came from another site is refused, like every cross-site POST.
        let elsewhere = try site.app.client().post(
            path, form: [("List-Unsubscribe", "One-Click")], headers: [("Origin", "https://mail.example")])
        #expect(elsewhere.status == 403)
        #expect(try site.account("ada").mailsReplies, "a refused POST changes nothing")

        // A mail provider's one-click POST, from its own servers: no cookie, no form token, no
        // Origin. Like every state change it is answered 303, to the link's page, which says so.
        let provider = site.app.client()
        let done = try provider.post(path, form: [("List-Unsubscribe", "One-Click")])
        #expect(done.status == 303)
        #expect(done["Location"] == path)
        #expect(try site.account("ada").mailsReplies == false)
        let after = try provider.get(path)
        #expect(after.status == 200 && after.text.contains("data-unsubscribed"))
        let again = try site.app.client().post(path, form: [("List-Unsubscribe", "One-Click")])
        #expect(again.status == 303, "again: the same answer")
        #expect(try ada.get("/account").text.contains("data-reply-mail=\"off\""))

        // The exemption is that path only: other POSTs still need the token.
        #expect(try provider.post("/account/reply-mail", form: [("mail", "on")]).status == 403)

        _ = try reply(bob, to: comment, on: slug, "A reply nobody is told about.")
        site.clock.advance(16 * 60)
        #expect(try site.round() == 0)
        #expect(site.sink.received == 1)
    }

    @Test func aDigestThatCannotBeQueuedWaitsForTheNextRound() throws {
        let site = try Site()
        let (_, slug, comment) = try site.subscriberWithComment()
        _ = try reply(try site.reader("bob"), to: comment, on: slug, "A reply.")
        // A closed mailer queues nothing: the claim is released.
        _ = site.app.app.mailer?.drain(timeout: .seconds(5))
        #expect(site.digests.runOnce(now: site.clock.clock.now()) == 0)
        let replyMail = ReplyMail(
            store: ReplyMailStore(database: site.app.app.database), tokens: UnsubscribeTokens(keys: site.app.app.keys),
            clock: site.clock.clock)
        let id = try site.account("ada").user.id
        #expect(try replyMail.dueReaders(now: site.clock.clock.now()) == [id])
        #expect(try replyMail.claimDigest(for: id, now: site.clock.clock.now())?.replies.count == 1)
    }

    @Test func roundsRunningAtOnceMailEachReplyOnce() throws {
        let site = try Site()
        let (_, slug, comment) = try site.subscriberWithComment()
        let bob = try site.reader("bob")
        for n in 1...3 { _ = try reply(bob, to: comment, on: slug, "Reply \(n).") }
        // Servers sharing the database run their rounds at the same moment: one mail in all.
        let now = site.clock.clock.now()
        let queued = Atomic<Int>(0)
        let digests = site.digests
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            queued.add(digests.runOnce(now: now), ordering: .relaxed)
        }
        #expect(queued.load(ordering: .relaxed) == 1)
        #expect(site.app.app.mailer?.waitUntilIdle(timeout: .seconds(10)) == true)
        let text = try #require(try site.sink.messages(1).first?.part("text/plain"))
        for n in 1...3 { #expect(occurrences(of: "Reply \(n).", in: text) == 1) }
        #expect(site.sink.received == 1)
    }

    @Test func extraHeadersCannotAddHeaders() throws {
        #expect(throws: MailError.self) { try MailHeader("List-Unsubscribe", "<https://x.test/a>\r\nBcc: b@x.test") }
        #expect(throws: MailError.self) { try MailHeader("Bcc: b@x.test\r\nX", "y") }
        #expect(throws: MailError.self) { try MailHeader("List-Unsubscribe", "<https://x.test/é>") }
        let headers = try ReplyDigestMail.unsubscribeHeaders("https://x.test/mail/unsubscribe/1.abc")
        let message = try MailMessage(
            from: MailAddress("news@x.test"), to: MailAddress("r@x.test"), subject: "s", text: "t", html: "h",
            headers: headers)
        let rendered = String(decoding: message.rendered(), as: UTF8.self)
        #expect(rendered.contains("\r\nList-Unsubscribe: <https://x.test/mail/unsubscribe/1.abc>\r\n"))
        #expect(rendered.contains("\r\nList-Unsubscribe-Post: List-Unsubscribe=One-Click\r\n"))
    }
}
