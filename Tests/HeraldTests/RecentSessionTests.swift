import TestSupport
import Testing

@testable import Herald

/// `Accounts.recentSessionOwner`: whose a browser's session is, or was until it expired less than
/// a day ago. A session that ended any other way (logout, a ban) names nobody.
@Suite struct RecentSessionTests {
    private static let day = 86_400

    /// An app on a clock the test moves, and a reader logged in on it with their session token.
    private static func loggedIn(_ name: String, time: TestClock) throws -> (TestApp, any HTTPTestClient, String) {
        let app = try TestApp(server: false, demo: false) { $0.clock = time.clock }
        let client = app.client()
        _ = try client.register(name)
        let token = try #require(client.cookies["herald_session"])
        return (app, client, token)
    }

    private static func sessionRows(_ app: TestApp) throws -> Int {
        try app.app.database.withConnection { try $0.query("SELECT count(*) FROM sessions") }.first?.int(0) ?? -1
    }

    @Test func aLiveSessionNamesItsAccount() throws {
        let (app, _, token) = try Self.loggedIn("rosa", time: TestClock())
        #expect(try app.app.accounts.recentSessionOwner(token)?.username == "rosa")
    }

    @Test func anIdleExpiredSessionNamesItsAccountForADayThenNobody() throws {
        let time = TestClock()
        let (app, client, token) = try Self.loggedIn("sam", time: time)
        // 14 idle days end the session: pages no longer know the reader…
        time.advance(14 * Self.day + 60)
        #expect(!(try client.get("/").text.contains("sam")))
        // …but the session is remembered as theirs.
        #expect(try app.app.accounts.recentSessionOwner(token)?.username == "sam")
        time.advance(Self.day - 120)
        #expect(try app.app.accounts.recentSessionOwner(token)?.username == "sam", "23 h 59 min after it ended")
        time.advance(120)
        #expect(try app.app.accounts.recentSessionOwner(token) == nil, "a day and a minute after it ended")
    }

    /// The browser keeps the cookie of a session that ran out while its owner was away for a day
    /// (pages treat them as logged out meanwhile), so a Save pressed after loading another page is
    /// still known as theirs; after the day the cookie is cleared like any dead one.
    @Test func aPageLoadedAfterExpiryKeepsTheCookieForTheDayThenClearsIt() throws {
        let time = TestClock()
        let (app, client, token) = try Self.loggedIn("yara", time: time)
        time.advance(14 * Self.day + 60)
        let page = try client.get("/")
        #expect(!page.text.contains("yara"))
        #expect(client.cookies["herald_session"] == token, "the cookie is kept for the day")
        #expect(try app.app.accounts.recentSessionOwner(token)?.username == "yara")
        time.advance(Self.day)
        _ = try client.get("/")
        #expect(client.cookies["herald_session"] == nil, "a day after the end it is cleared")
    }

    @Test func anAbsolutelyExpiredSessionCountsFromItsEnd() throws {
        let time = TestClock()
        let (app, client, token) = try Self.loggedIn("tess", time: time)
        // Active every 10 days: never idle, but 30 days after login it ends all the same.
        for _ in 0..<3 {
            time.advance(10 * Self.day)
            _ = try client.get("/")
        }
        time.advance(60)
        #expect(try app.app.accounts.user(sessionToken: token) == nil)
        #expect(try app.app.accounts.recentSessionOwner(token)?.username == "tess")
        time.advance(Self.day)
        #expect(try app.app.accounts.recentSessionOwner(token) == nil)
    }

    @Test func expiredRowsArePurgedADayAfterTheyEndedNotBefore() throws {
        let time = TestClock()
        let (app, _, _) = try Self.loggedIn("uma", time: time)
        _ = try app.client().register("victor")
        time.advance(14 * Self.day + 60)
        // A login purges what is past keeping: both sessions ended a minute ago, so both stay.
        _ = try app.client().login("victor")
        #expect(try Self.sessionRows(app) == 3)
        time.advance(Self.day)
        _ = try app.client().login("victor")
        #expect(try Self.sessionRows(app) == 2, "the two that ended a day ago are gone; two live ones are left")
    }

    @Test func aLoggedOutSessionNamesNobody() throws {
        let (app, client, token) = try Self.loggedIn("wren", time: TestClock())
        _ = try client.logout()
        #expect(try app.app.accounts.recentSessionOwner(token) == nil)
    }

    @Test func aBannedAccountsSessionsNameNobodyEvenAfterTheUnban() throws {
        let time = TestClock()
        let (app, _, token) = try Self.loggedIn("xena", time: time)
        let user = try #require(try app.app.accounts.recentSessionOwner(token))
        let moderation = ModerationStore(database: app.app.database)
        _ = try moderation.setBanned(
            userID: user.id, username: user.username, banned: true, hideComments: false, actor: "test", note: "",
            now: time.clock.now())
        #expect(try app.app.accounts.recentSessionOwner(token) == nil, "banned")
        _ = try moderation.setBanned(
            userID: user.id, username: user.username, banned: false, hideComments: false, actor: "test", note: "",
            now: time.clock.now())
        #expect(try app.app.accounts.recentSessionOwner(token) == nil, "its sessions were suspended by the ban")
    }

    @Test func anExpiredSessionOfABannedAccountNamesNobody() throws {
        let time = TestClock()
        let (app, _, token) = try Self.loggedIn("yuri", time: time)
        time.advance(14 * Self.day + 60)
        let user = try #require(try app.app.accounts.recentSessionOwner(token))
        // Banned directly in the table: the account's flag alone must be enough.
        _ = try app.app.database.write {
            try $0.query("UPDATE users SET banned = 1 WHERE id = ?", [.integer(Int64(user.id))])
        }
        #expect(try app.app.accounts.recentSessionOwner(token) == nil)
    }

    @Test func unknownAndMalformedTokensNameNobody() throws {
        let (app, _, token) = try Self.loggedIn("zoe", time: TestClock())
        let other = String(token.reversed())
        for candidate in [other, "", "short", String(repeating: "A", count: 43), token + "x"] {
            #expect(try app.app.accounts.recentSessionOwner(candidate) == nil, "\(candidate)")
        }
    }
}
