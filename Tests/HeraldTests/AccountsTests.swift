import Foundation
import HTTP
import TestSupport
import Testing

@testable import Herald

@Suite struct AccountsTests {
    @Test func registerLogsInAndShowsTheReader() throws {
        let app = try TestApp(server: false)
        let client = app.client()
        let response = try client.register("alice")
        #expect(response.status == 303)
        #expect(response["Location"] == "/")
        let cookie = try #require(response.headers.values(for: "Set-Cookie").first { $0.hasPrefix("herald_session=") })
        #expect(cookie.contains("HttpOnly"))
        #expect(cookie.contains("SameSite=Lax"))
        #expect(cookie.contains("Path=/"))
        #expect(!cookie.contains("Secure"))
        let home = try client.get("/").text
        #expect(home.contains("alice"))
        #expect(home.contains("action=\"/logout\""))
        #expect(!home.contains("href=\"/login\""))
    }

    @Test func secureCookiesBehindATrustedTLSProxy() throws {
        let app = try TestApp(server: false) { $0.trustForwardedProto = true }
        let client = app.client()
        client.defaultHeaders = [("X-Forwarded-Proto", "https")]
        let response = try client.register("tls-reader")
        // SPEC third wave: over HTTPS every cookie has the `__Host-` prefix (Secure, Path=/, no Domain).
        let cookies = response.headers.values(for: "Set-Cookie")
        #expect(!cookies.contains { $0.hasPrefix("herald_") }, "no bare name over HTTPS")
        let cookie = try #require(cookies.first { $0.hasPrefix("__Host-herald_session=") })
        #expect(cookie.contains("; Secure"))
        #expect(cookie.contains("Path=/"))
        #expect(!cookie.lowercased().contains("domain="))
        // The browser sends it back under that name, and is logged in.
        #expect(try client.get("/account").status == 200)
    }

    @Test func invalidRegistrationsAre422WithMessages() throws {
        let app = try TestApp(server: false, demo: false)
        let client = app.client()
        let cases: [(String, String, String)] = [
            ("ab", "a-long-pass-phrase", "3 to 32"),
            (String(repeating: "a", count: 33), "a-long-pass-phrase", "3 to 32"),
            ("bad name!", "a-long-pass-phrase", "only letters"),
            ("zoë", "a-long-pass-phrase", "only letters"),
            ("shortpass", "1234567", "at least 8"),
            ("commonpass", "password1", "most common"),
            ("commonpass", "Qwertyuiop", "most common"),
            ("toolong", String(repeating: "x", count: 257), "at most 256"),
        ]
        for (username, password, message) in cases {
            let response = try client.register(username, password)
            #expect(response.status == 422, "\(username)")
            #expect(response.text.contains(message), "\(username): \(message)")
            #expect(response.text.contains("value=\"\(username.prefix(5))"), "username kept")
            #expect(!response.text.contains(password) || password.count < 8, "password never echoed")
        }
        // Unicode passwords of 8+ characters are fine.
        #expect(try client.register("unicode-pw", "пароль-ключ-🔑").status == 303)
    }

    @Test func takenUsernameIsCaseInsensitive409() throws {
        let app = try TestApp(server: false, demo: false)
        #expect(try app.client().register("Alice").status == 303)
        let again = try app.client().register("aLiCe")
        #expect(again.status == 409)
        #expect(again.text.contains("already taken"))
    }

    @Test func failedLoginIs422WithOneMessageForBothCauses() throws {
        let app = try TestApp(server: false, demo: false)
        _ = try app.client().register("bob")
        let wrongPassword = try app.client().login("bob", "not-the-password")
        let before = app.app.accounts.verifications.load(ordering: .relaxed)
        let unknownUser = try app.client().login("nobody-here", "not-the-password")
        #expect(wrongPassword.status == 422)
        #expect(unknownUser.status == 422)
        let message = "That username and password do not match."
        #expect(wrongPassword.text.contains(message))
        #expect(unknownUser.text.contains(message))
        #expect(wrongPassword.headers.values(for: "Set-Cookie").allSatisfy { !$0.hasPrefix("herald_session=") })
        // An unknown user still cost a real password verification.
        #expect(app.app.accounts.verifications.load(ordering: .relaxed) == before + 1)
    }

    @Test func everyLoginStartsANewSession() throws {
        let app = try TestApp(server: false, demo: false)
        let client = app.client()
        _ = try client.register("carol")
        let first = try #require(client.cookies["herald_session"])
        _ = try client.logout()
        _ = try client.login("carol")
        let second = try #require(client.cookies["herald_session"])
        #expect(first != second)
    }

    @Test func aPlantedLiveSessionIsNeverAdoptedAtLogin() throws {
        let app = try TestApp(server: false, demo: false)
        _ = try app.client().register("carol")
        // The attacker's own, live session, planted in the victim's browser.
        let attacker = app.client()
        _ = try attacker.register("mallory")
        let planted = try #require(attacker.cookies["herald_session"])
        let victim = app.client()
        victim.defaultHeaders = [("Sec-Fetch-Site", "same-origin")]
        victim.setCookie("herald_session", planted)
        let login = try victim.post("/login", form: [("username", "carol"), ("password", "a-long-pass-phrase")])
        #expect(login.status == 303)
        let issued = try #require(victim.cookies["herald_session"])
        #expect(issued != planted)
        #expect(try victim.get("/").text.contains("carol"))
        // The planted token does not open carol's account.
        let withPlanted = app.client()
        withPlanted.setCookie("herald_session", planted)
        #expect(!(try withPlanted.get("/").text.contains("carol")))
    }

    @Test func loggedOutCookieIsDead() throws {
        let app = try TestApp(server: false, demo: false)
        let client = app.client()
        _ = try client.register("dave")
        let stolen = try #require(client.cookies["herald_session"])
        let logout = try client.logout()
        #expect(logout.status == 303)
        #expect(logout["Location"] == "/")
        #expect(client.cookies["herald_session"] == nil)
        let thief = app.client()
        thief.setCookie("herald_session", stolen)
        let page = try thief.get("/")
        #expect(!page.text.contains("dave"))
        #expect(thief.cookies["herald_session"] == nil, "the dead cookie is cleared")
    }

    @Test func sessionsExpireWhenIdleAndAbsolutely() throws {
        let time = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = time.clock }
        let client = app.client()
        _ = try client.register("erin")
        time.advance(13 * 86_400)
        #expect(try client.get("/").text.contains("erin"), "13 idle days: still in")
        for _ in 0..<2 {
            time.advance(13 * 86_400)
            _ = try client.get("/")  // active, but…
        }
        // …39 days after login the absolute limit (30) has ended it; and idle 15 days ends any.
        #expect(!(try client.get("/").text.contains("erin")))
        let other = app.client()
        _ = try other.login("erin")
        time.advance(15 * 86_400)
        #expect(!(try other.get("/").text.contains("erin")))
    }

    @Test func loginAndRegisterRedirectWhenLoggedIn() throws {
        let app = try TestApp(server: false, demo: false)
        let client = app.client()
        _ = try client.register("frank")
        #expect(try client.get("/login").status == 303)
        #expect(try client.get("/register?next=/me/likes")["Location"] == "/me/likes")
        #expect(try client.get("/login?next=//evil.example")["Location"] == "/")
    }

    @Test func nextIsFollowedOnlyWhenLocal() throws {
        let app = try TestApp(server: false, demo: false)
        _ = try app.client().register("gina")
        #expect(try app.client().login("gina", next: "/me/likes")["Location"] == "/me/likes")
        for hostile in ["//evil.example/x", "https://evil.example", "/\\evil.example", "javascript:alert(1)"] {
            #expect(try app.client().login("gina", next: hostile)["Location"] == "/", "\(hostile)")
        }
    }

    @Test func myLikesNeedsLoginAndComesBackAfter() throws {
        let app = try TestApp(server: false)
        let client = app.client()
        let anonymous = try client.get("/me/likes")
        #expect(anonymous.status == 303)
        #expect(anonymous["Location"] == "/login?next=/me/likes")
        let loginPage = try client.get("/login?next=/me/likes").text
        #expect(loginPage.contains("name=\"next\" value=\"/me/likes\""))
        _ = try app.client().register("hank")
        let response = try client.login("hank", next: hiddenField("next", in: loginPage))
        #expect(response["Location"] == "/me/likes")
        let likes = try client.get("/me/likes")
        #expect(likes.status == 200)
        #expect(likes.text.contains("You have not liked any articles yet"))
    }

    @Test func loginThrottlingKicksInAndLifts() throws {
        let time = TestClock()
        let app = try TestApp(server: false, demo: false) {
            $0.clock = time.clock
            $0.accounts.loginFailuresPerUsername = 3
        }
        _ = try app.client().register("ivan")
        for _ in 0..<3 { #expect(try app.client().login("ivan", "wrong-password").status == 422) }
        let throttled = try app.client().login("ivan")
        #expect(throttled.status == 429)
        #expect(Int(throttled["Retry-After"] ?? "") ?? 0 > 0)
        #expect(throttled.text.contains("try again in"))
        time.advance(15 * 60 + 1)
        #expect(try app.client().login("ivan").status == 303, "the window has passed")
    }

    @Test func loginThrottlingPerAddress() throws {
        let app = try TestApp(server: false, demo: false) { $0.accounts.loginFailuresPerAddress = 2 }
        _ = try app.client().login("nobody1", "wrong-password")
        _ = try app.client().login("nobody2", "wrong-password")
        #expect(try app.client().login("nobody3", "wrong-password").status == 429)
    }

    @Test func registrationIsLimitedPerAddress() throws {
        let app = try TestApp(server: false, demo: false) { $0.accounts.registrationsPerAddress = 2 }
        #expect(try app.client().register("reg-one").status == 303)
        #expect(try app.client().register("reg-two").status == 303)
        let third = try app.client().register("reg-three")
        #expect(third.status == 429)
        #expect(third["Retry-After"] != nil)
    }

    @Test func oldHashesAreUpgradedAtLogin() throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let database = try Database(path: directory + "/h.sqlite3")
        let store = AccountStore(database: database)
        let weak = try PasswordHashing(cost: .minimum).hash("a-long-pass-phrase")
        let user = try #require(try store.createUser(username: "old", passwordHash: weak, at: 1))
        var settings = AccountSettings()
        settings.passwordCost = .interactive
        let accounts = try Accounts(
            store: store, limiter: RateLimiter(store: RateLimitStore(database: database), clock: .system),
            rules: AccountRules(commonPasswords: []),
            settings: settings, clock: .system)
        guard case .loggedIn = try accounts.login(username: "old", password: "a-long-pass-phrase", address: "x") else {
            Issue.record("login failed")
            return
        }
        let upgraded = try #require(try store.credentials(username: "old")).passwordHash
        #expect(upgraded != weak)
        #expect(!PasswordHashing(cost: .interactive).needsRehash(upgraded))
        #expect(user.username == "old")
    }
}
