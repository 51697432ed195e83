import Foundation
import Mustache
import TestSupport
import Testing

@testable import Herald

/// Issue #32, item 2: a ban says why and for how long (1 day, 7 days, permanently); a ban whose
/// time has passed is no ban anywhere; the record and the refused login say until when.
@Suite struct BanLengthTests {
    private static let day = 86_400

    /// An app on a clock the test moves.
    private static func app(_ time: TestClock) throws -> TestApp {
        try TestApp(server: false) { $0.clock = time.clock }
    }

    private static func ban(
        _ moderator: any HTTPTestClient, _ name: String, reason: String, duration: String, on page: String = "/"
    ) throws -> TestResponse {
        try moderator.postForm("/users/\(name)/ban", on: page, [("note", reason), ("duration", duration)])
    }

    @Test func aOneDayBanLiftsItselfAfterADayAndAPermanentOneDoesNot() throws {
        let time = TestClock()
        let app = try Self.app(time)
        let slug = try app.firstSlug()
        for name in ["brief", "forever"] { _ = try app.reader(name).logout() }
        let moderator = try app.moderator()
        let start = time.clock.now()

        let banned = try Self.ban(moderator, "brief", reason: "cooling off", duration: "1d")
        #expect(banned.status == 303)
        let until = "until \(DateText.dayAndTime(start + Self.day)) UTC"
        #expect(flashText(in: try moderator.follow(banned).text)?.contains("“brief” is banned \(until)") == true)
        #expect(try Self.ban(moderator, "forever", reason: "a spam bot", duration: "permanent").status == 303)

        // The record shows each reason and until when.
        let record = try moderator.moderationPage()
        let rows = actionRows(in: record)
        #expect(rows.map(\.note).prefix(2) == ["a spam bot", "cooling off"])
        #expect(record.contains("<td>cooling off</td><td>\(until)</td>"))
        #expect(record.contains("<td>a spam bot</td><td>permanently</td>"))

        // Refused logins say until when.
        let brief = app.client()
        let refused = try brief.login("brief")
        #expect(refused.status == 403)
        #expect(refused.text.contains("This account is suspended \(until)"))
        let forever = try app.client().login("forever")
        #expect(forever.status == 403)
        #expect(forever.text.contains("This account is suspended permanently"))

        // A second short of a day: still banned. A day later: no ban, for logging in and posting.
        time.advance(Self.day - 1)
        #expect(try app.client().login("brief").status == 403)
        time.advance(1)
        let login = try brief.login("brief")
        #expect(login.status == 303)
        #expect(try brief.comment(on: slug, "Back after a day.") > 0)
        #expect(try app.client().get("/articles/\(slug)").text.contains("Back after a day."))
        #expect(try app.client().login("forever").status == 403, "a permanent ban does not run out")
        time.advance(365 * Self.day)
        #expect(try app.client().login("forever").status == 403)

        // Unban still works on the permanent one (the moderator's own session ran out meanwhile).
        let back = app.client()
        #expect(try back.login("moderator").status == 303)
        #expect(try back.postForm("/users/forever/unban").status == 303)
        #expect(try app.client().login("forever").status == 303)
    }

    @Test func aBanThatRanOutCountsAsNoBanForSessionsAndCanBeGivenAgain() throws {
        let time = TestClock()
        let app = try Self.app(time)
        _ = try app.reader("again").logout()
        let moderator = try app.moderator()
        #expect(try Self.ban(moderator, "again", reason: "first time", duration: "1d").status == 303)
        time.advance(Self.day)
        let reader = app.client()
        #expect(try reader.login("again").status == 303)
        let token = try #require(reader.cookies["herald_session"])
        #expect(try app.app.accounts.recentSessionOwner(token)?.username == "again")
        // Banned anew (the old ban had run out): the new session ends at once.
        #expect(try Self.ban(moderator, "again", reason: "second time", duration: "7d").status == 303)
        #expect(try app.app.accounts.recentSessionOwner(token) == nil)
        #expect(!(try reader.get("/").text.contains("Signed in as")))
        time.advance(7 * Self.day)
        #expect(try app.client().login("again").status == 303)
    }

    @Test func aBanCapturedLoggedOutCarriesItsReasonAndLengthThroughLogin() throws {
        let time = TestClock()
        let app = try Self.app(time)
        _ = try app.reader("target").logout()
        _ = try app.moderator("mod").logout()

        let browser = app.client()
        let captured = try Self.ban(browser, "target", reason: "flooding", duration: "7d", on: "/login")
        #expect(captured.status == 303)
        #expect(captured["Location"] == "/login")
        #expect(try browser.get("/login").text.contains("ban “target” for 7 days with the note “flooding”"))

        let login = try browser.login("mod")
        #expect(login.status == 303)
        #expect(login["Location"] == "/moderation")
        let until = "until \(DateText.dayAndTime(time.clock.now() + 7 * Self.day)) UTC"
        let queue = try browser.follow(login).text
        #expect(flashText(in: queue)?.contains("“target” is banned \(until)") == true)
        #expect(queue.contains("<td>flooding</td><td>\(until)</td>"))
        #expect(try app.client().login("target").text.contains("suspended \(until)"))
        time.advance(7 * Self.day)
        #expect(try app.client().login("target").status == 303)
    }

    @Test func aBadLengthOrNoReasonIsRefusedWithTheFormBackAndNothingChanged() throws {
        let app = try TestApp(server: false)
        _ = try app.reader("target").logout()
        let moderator = try app.moderator()
        let typed = "Rude <again> & again"

        let bad = try Self.ban(moderator, "target", reason: typed, duration: "forever")
        #expect(bad.status == 422)
        #expect(bad.text.contains("Choose how long the ban lasts"))
        #expect(bad.text.contains("action=\"/users/target/ban\""))
        #expect(bad.text.contains("value=\"\(escapeHTML(typed))\""), "the reason typed is put back")
        #expect(hiddenField("csrf_token", in: bad.text) != nil)

        let noReason = try Self.ban(moderator, "target", reason: "  ", duration: "7d")
        #expect(noReason.status == 422)
        #expect(noReason.text.contains("a ban needs a reason"))
        #expect(noReason.text.contains("value=\"7d\" checked"), "the length chosen is kept")

        #expect(try app.client().login("target").status == 303, "nothing was banned")
        #expect(!actionRows(in: try moderator.moderationPage()).contains { $0.action == "ban" })

        // Logged out: refused before it is kept, with the form back; nothing is pending.
        let browser = app.client()
        let refused = try Self.ban(browser, "target", reason: typed, duration: "1 week", on: "/login")
        #expect(refused.status == 422)
        #expect(refused.text.contains("value=\"\(escapeHTML(typed))\""))
        #expect(browser.cookies["herald_intent"] == nil)
    }

    @Test func theQueuesBanFormAsksForAReasonAndALength() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let id = try app.reader("rude").comment(on: slug, "Rude.")
        #expect(try app.reader("reporter").report(id, on: slug, reason: "abuse").status == 303)
        let item = try #require(queueItems(in: try app.moderator().moderationPage()).first { $0.id == id })
        let form = try #require(
            firstMatch(#"(?s)(<form method="post" action="/users/rude/ban".*?</form>)"#, in: item.html))
        #expect(form.contains("name=\"note\" maxlength=\"500\" required"))
        #expect(
            matches(of: #"<input type="radio" name="duration" value="([^"]+)""#, in: form) == ["1d", "7d", "permanent"])
    }
}
