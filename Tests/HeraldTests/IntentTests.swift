import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// Herald's reason to exist: an action started while logged out is performed at login.
@Suite struct IntentTests {
    @Test func anonymousLikeThenRegisterLandsOnTheArticleLiked() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        let captured = try reader.submitLikeForm(slug)
        #expect(captured.status == 303)
        #expect(captured["Location"] == "/login")
        let cookie = try #require(captured.headers.values(for: "Set-Cookie").first { $0.hasPrefix("herald_intent=") })
        #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Lax") && cookie.contains("Path=/"))
        // Kept a day, so that text in a stale intent can come back; performed only within 15 minutes.
        let maxAge = Int(firstMatch(#"Max-Age=(\d+)"#, in: cookie) ?? "") ?? .max
        #expect(maxAge <= 86_400)
        #expect(cookie.utf8.count <= 4096)

        let title = try #require(try app.app.articles.article(slug: slug)).title
        let loginPage = try reader.get("/login").text
        #expect(loginPage.contains("Log in to like “\(escapeHTML(title))”"))
        #expect(loginPage.contains("action=\"/intent/cancel\""))
        // Moving to the register page keeps it.
        #expect(
            try reader.get("/register").text.contains("Create an account to like “\(escapeHTML(title))”."))

        let registered = try reader.register("newreader")
        #expect(registered.status == 303)
        #expect(registered["Location"] == "/articles/\(slug)#like")
        #expect(reader.cookies["herald_intent"] == nil)
        let article = try reader.get("/articles/\(slug)").text
        #expect(article.contains("role=\"status\">You liked “\(escapeHTML(title))”"))
        #expect(article.contains("data-like-count=\"1\""))
        #expect(article.contains("action=\"/articles/\(slug)/unlike\""))
        #expect(!article.contains("action=\"/articles/\(slug)/like\""))
        // The flash appears once.
        #expect(!(try reader.get("/articles/\(slug)").text.contains("role=\"status\"")))
    }

    @Test func anonymousLikeThenLogin() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.client().register("returning")
        let reader = app.client()
        _ = try reader.submitLikeForm(slug)
        let login = try reader.login("returning")
        #expect(login["Location"] == "/articles/\(slug)#like")
        #expect(try reader.likeCount(slug) == 1)
    }

    @Test func wrongPasswordKeepsTheIntentAndTheRightOnePerformsIt() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.client().register("forgetful")
        let reader = app.client()
        _ = try reader.submitLikeForm(slug)
        let failed = try reader.login("forgetful", "wrong-password")
        #expect(failed.status == 422)
        #expect(failed.text.contains("Log in to like"))
        #expect(reader.cookies["herald_intent"] != nil)
        #expect(try reader.login("forgetful")["Location"] == "/articles/\(slug)#like")
        #expect(try reader.likeCount(slug) == 1)
    }

    @Test func alreadyLikedStillCountsOnce() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        _ = try reader.register("keen")
        _ = try reader.submitLikeForm(slug)
        _ = try reader.logout()
        let page = try reader.get("/articles/\(slug)").text
        let token = try #require(hiddenField("csrf_token", in: page))
        _ = try reader.post("/articles/\(slug)/like", form: [("csrf_token", token)])
        #expect(try reader.login("keen")["Location"] == "/articles/\(slug)#like")
        #expect(try reader.likeCount(slug) == 1)
        #expect(try app.app.likes.countRows(articleID: try #require(try app.app.articles.article(slug: slug)).id) == 1)
    }

    @Test func anonymousUnlikeIsResumedToo() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        _ = try reader.register("fickle")
        _ = try reader.submitLikeForm(slug)
        _ = try reader.logout()
        let token = try reader.formToken(on: "/articles/\(slug)")
        #expect(try reader.post("/articles/\(slug)/unlike", form: [("csrf_token", token)])["Location"] == "/login")
        #expect(try reader.login("fickle")["Location"] == "/articles/\(slug)#like")
        #expect(try reader.likeCount(slug) == 0)
    }

    @Test func unknownSlugIs404AndStoresNothing() throws {
        let app = try TestApp(server: false)
        let reader = app.client()
        let token = try reader.formToken(on: "/login")
        let response = try reader.post("/articles/no-such-article/like", form: [("csrf_token", token)])
        #expect(response.status == 404)
        #expect(reader.cookies["herald_intent"] == nil)
    }

    @Test func cancelDiscardsIt() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.client().register("undecided")
        let reader = app.client()
        _ = try reader.submitLikeForm(slug)
        let token = try reader.formToken(on: "/login")
        let cancel = try reader.post("/intent/cancel", form: [("csrf_token", token)])
        #expect(cancel.status == 303)
        #expect(cancel["Location"] == "/articles/\(slug)")
        #expect(reader.cookies["herald_intent"] == nil)
        #expect(!(try reader.get("/login").text.contains("Log in to like")))
        #expect(try reader.login("undecided")["Location"] == "/")
        #expect(try reader.likeCount(slug) == 0)
    }

    @Test(arguments: ["first", "middle", "last", "garbage", "empty", "oversized", "foreign", "version"])
    func voidIntentsAreIgnoredAndLoginStillSucceeds(kind: String) throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.client().register("careful")
        let reader = app.client()
        _ = try reader.submitLikeForm(slug)
        let original = try #require(reader.cookies["herald_intent"])
        var bytes = Array(original.utf8)
        func flip(_ index: Int) {
            bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        }
        switch kind {
        case "first": flip(0)
        case "middle": flip(bytes.count / 2)
        case "last": flip(bytes.count - 1)
        case "garbage": bytes = Array("%%%not-an-intent$$$".utf8)
        case "empty": bytes = []
        case "oversized": bytes = Array(String(repeating: "A", count: 5000).utf8)
        case "version": bytes = Array(("9" + original.dropFirst()).utf8)
        default:  // signed with another site's key
            let foreign = IntentCodec(keys: SecretKeys(current: "some-other-site-secret"))
            let intent = Intent(
                action: "like", parameters: ["slug": slug], fields: [], returnPath: "/articles/\(slug)",
                issuedAt: Int(Date().timeIntervalSince1970), expiresAt: Int(Date().timeIntervalSince1970) + 600,
                id: "forged")
            bytes = Array(try #require(try foreign.encode(intent)).utf8)
        }
        reader.setCookie("herald_intent", String(decoding: bytes, as: UTF8.self))
        let login = try reader.login("careful")
        #expect(login.status == 303)
        #expect(login["Location"] == "/")
        #expect(reader.cookies["herald_intent"] == nil, "cleared")
        #expect(try reader.likeCount(slug) == 0, "nothing performed")
    }

    @Test func expiredIntentIsVoid() throws {
        let time = TestClock()
        let app = try TestApp(server: false) { $0.clock = time.clock }
        let slug = try app.firstSlug()
        _ = try app.client().register("slowpoke")
        let reader = app.client()
        _ = try reader.submitLikeForm(slug)
        time.advance(16 * 60)
        #expect(try reader.login("slowpoke")["Location"] == "/")
        #expect(try reader.likeCount(slug) == 0)
    }

    @Test func replayedIntentDoesNothing() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.client().register("original")
        let reader = app.client()
        _ = try reader.submitLikeForm(slug)
        let copied = try #require(reader.cookies["herald_intent"])
        _ = try reader.login("original")
        #expect(try reader.likeCount(slug) == 1)
        _ = try reader.submitLikeForm(slug)  // the page now offers unlike
        #expect(try reader.likeCount(slug) == 0)
        _ = try reader.logout()
        let replayer = app.client()
        replayer.setCookie("herald_intent", copied)
        #expect(try replayer.login("original")["Location"] == "/")
        #expect(try replayer.likeCount(slug) == 0, "stays unliked")
    }

    @Test func keyRotation() throws {
        let intent = Intent(
            action: "like", parameters: ["slug": "x"], fields: [["a", "b"]], returnPath: "/articles/x", issuedAt: 100,
            expiresAt: 700, id: "id")
        let old = IntentCodec(keys: SecretKeys(current: "first-secret-0123456789"))
        let rotated = IntentCodec(
            keys: SecretKeys(current: "second-secret-0123456789", previous: ["first-secret-0123456789"]))
        let forgotten = IntentCodec(keys: SecretKeys(current: "second-secret-0123456789"))
        let cookie = try #require(try old.encode(intent))
        #expect(try rotated.decode(cookie, now: 200).get() == intent)
        #expect(throws: IntentCodec.VoidReason.unknownKey) { try forgotten.decode(cookie, now: 200).get() }
        // Past its 15 minutes it still decodes (its text can come back) but the caller does not
        // perform it; a day after its capture it is void.
        #expect(try rotated.decode(cookie, now: 700).get().expiresAt <= 700)
        #expect(throws: IntentCodec.VoidReason.expired) { try rotated.decode(cookie, now: 100 + 86_400).get() }
        let tooLong = Intent(
            action: "like", parameters: [:], fields: [], returnPath: "/", issuedAt: 0, expiresAt: 3600, id: "x")
        #expect(throws: IntentCodec.VoidReason.expired) {
            try old.decode(try #require(try old.encode(tooLong)), now: 1).get()
        }
    }

    /// Over sockets: fifty connections served by the server's threads at once.
    @Test func fiftyConcurrentLikersLeaveAnExactCount() throws {
        let app = try TestApp()
        let slug = try app.firstSlug()
        let port = app.port
        let clients = try (0..<50).map { index -> TestClient in
            let client = TestClient(port: port)
            _ = try client.register("liker\(index)")
            return client
        }
        let tokens = try clients.map { try $0.formToken(on: "/articles/\(slug)") }
        let failures = Failures()
        let boxes = clients.map { UncheckedBox($0) }
        DispatchQueue.concurrentPerform(iterations: 50) { index in
            do {
                let response = try boxes[index].value.post(
                    "/articles/\(slug)/like", form: [("csrf_token", tokens[index])])
                if response.status != 303 { failures.add("status \(response.status)") }
            } catch { failures.add("\(error)") }
        }
        #expect(failures.all.isEmpty)
        let article = try #require(try app.app.articles.article(slug: slug))
        #expect(article.likeCount == 50)
        #expect(try app.app.likes.countRows(articleID: article.id) == 50)
    }
}

struct UncheckedBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}

@Suite struct CookieBase85Tests {
    @Test func roundTripsEveryLength() {
        var generator = SystemRandomNumberGenerator()
        for length in 0..<40 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let encoded = CookieBase85.encode(bytes)
            #expect(CookieBase85.decode(encoded) == bytes)
            #expect(!encoded.contains(where: { ";, \"\\~".contains($0) }), "cookie-safe and no separator")
        }
    }

    @Test(arguments: ["", "4abcde", "0abcd", "0abc~e", "0#####", "1\u{e9}bcde"])
    func rejectsWhatItDidNotMake(text: String) {
        #expect(CookieBase85.decode(text) == nil)
    }
}
