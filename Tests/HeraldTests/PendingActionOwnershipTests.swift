import Foundation
import HTTP
import TestSupport
import Testing

@testable import Herald

#if canImport(Glibc)
    import Glibc
#endif

/// SPEC third wave, "The pending action belongs to the browser that began it" (issue #28): each
/// attack from the issue, reproduced as an attacker would make it — a cookie copied from one
/// browser's jar into another's, a draft's id posted by a stranger, parking filled by strangers.
@Suite struct PendingActionOwnershipTests {
    static let sameOrigin = [("Sec-Fetch-Site", "same-origin")]

    /// Random CJK code points barely compress: 2,000 of them are too large for the cookie.
    static func incompressibleCJK(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String(
            String.UnicodeScalarView(
                (0..<count).compactMap { _ in Unicode.Scalar(UInt32.random(in: 0x4E00...0x9FFF, using: &generator)) }))
    }

    // MARK: Bound to the browser

    @Test func anIntentCookieCopiedIntoAnotherBrowserIsNeverPerformed() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.reader("victim").logout()
        let attacker = app.client()
        let token = try attacker.formToken(on: "/articles/\(slug)")
        let captured = try attacker.post(
            "/articles/\(slug)/comments", form: [("csrf_token", token), ("body", "Words the victim never wrote.")])
        #expect(captured["Location"] == "/login")
        let planted = try #require(attacker.cookies["herald_intent"])

        let victim = app.client()
        _ = try victim.get("/login")  // the victim's browser has its own id
        victim.setCookie("herald_intent", planted)
        let loginPage = try victim.get("/login").text
        #expect(!loginPage.contains("Words the victim never wrote"), "nothing foreign is offered as pending")
        #expect(!loginPage.contains("Log in to post"))
        let login = try victim.login("victim")
        #expect(login.status == 303)
        #expect(login["Location"] == "/", "not sent to the article as if something was done")
        #expect(victim.cookies["herald_intent"] == nil, "the planted cookie is cleared")
        let landed = try victim.follow(login).text
        #expect(flashText(in: landed)?.contains("started in another browser") == true)
        #expect(!(try app.client().get("/articles/\(slug)").text.contains("Words the victim never wrote")))

        // In the browser that began it, the same cookie still works: the binding, not the cookie, decided.
        _ = try app.client().register("attacker")
        let own = try attacker.login("attacker")
        #expect(own["Location"]?.hasPrefix("/articles/\(slug)") == true)
        #expect(try app.client().get("/articles/\(slug)").text.contains("Words the victim never wrote."))
    }

    @Test func aParkedFormNamedByACopiedCookieIsNeverPerformedNorShown() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.reader("victim").logout()
        let noise = Self.incompressibleCJK(2000)
        let attacker = app.client()
        let token = try attacker.formToken(on: "/articles/\(slug)")
        let captured = try attacker.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", noise)])
        #expect(captured["Location"] == "/login")
        let planted = try #require(attacker.cookies["herald_intent"])
        #expect(planted.utf8.count < 400, "parked: the cookie only names it")

        let victim = app.client()
        _ = try victim.get("/login")
        victim.setCookie("herald_intent", planted)
        #expect(!(try victim.get("/login").text.contains(String(noise.prefix(20)))))
        let login = try victim.login("victim")
        #expect(login["Location"] == "/")
        #expect(!(try app.client().get("/articles/\(slug)").text.contains(String(noise.prefix(40)))))
    }

    @Test func aBareCookiePlantedOverHTTPSIsIgnored() throws {
        // A sibling subdomain, or someone speaking plain HTTP to the browser, can set `herald_intent`
        // but never `__Host-herald_intent`: over HTTPS only the prefixed name is read.
        let app = try TestApp(server: false) { $0.trustForwardedProto = true }
        let slug = try app.firstSlug()
        let attacker = app.client()
        _ = try attacker.submitLikeForm(slug)
        let planted = try #require(attacker.cookies["herald_intent"])

        let victim = app.client()
        victim.defaultHeaders = [("X-Forwarded-Proto", "https")]
        _ = try victim.register("tlsvictim")
        _ = try victim.logout()
        victim.setCookie("herald_intent", planted)
        let login = try victim.login("tlsvictim")
        #expect(login["Location"] == "/")
        #expect(try victim.likeCount(slug) == 0)
    }

    @Test func overHTTPSEveryCookieHasTheHostPrefixAndTheFlowStillWorks() throws {
        let app = try TestApp(server: false) { $0.trustForwardedProto = true }
        let slug = try app.firstSlug()
        _ = try app.reader("secure").logout()
        let reader = app.client()
        reader.defaultHeaders = [("X-Forwarded-Proto", "https")]
        let captured = try reader.submitLikeForm(slug)
        #expect(captured["Location"] == "/login")
        #expect(reader.cookies.keys.allSatisfy { $0.hasPrefix("__Host-") }, "\(reader.cookies.keys.sorted())")
        #expect(reader.cookies["__Host-herald_intent"] != nil)
        #expect(reader.cookies["__Host-herald_csrf"] != nil)
        for cookie in captured.headers.values(for: "Set-Cookie") {
            #expect(
                cookie.contains("; Secure") && cookie.contains("Path=/") && !cookie.lowercased().contains("domain="))
        }
        let login = try reader.login("secure")
        #expect(login["Location"] == "/articles/\(slug)#like")
        #expect(reader.cookies["__Host-herald_session"] != nil)
        #expect(try reader.likeCount(slug) == 1)
    }

    // MARK: Saying what will happen, and nothing more

    @Test func aDraftsTitleNeverAppearsOnTheLoginPageAndIdsCannotBeEnumerated() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor("desk")
        let id = try editor.newArticle(ArticleForm(title: "EMBARGOED: Merger of Acme and Globex", body: "Secret."))

        var pages: [String] = []
        for target in [id, "987654"] {
            let stranger = app.client()
            let token = try stranger.formToken(on: "/login")
            let captured = try stranger.post(
                "/editor/articles/\(target)",
                form: [("csrf_token", token), ("title", "x"), ("body", "y"), ("action", "save")])
            #expect(captured.status == 303, "an existing draft and an unknown id are answered the same")
            #expect(captured["Location"] == "/login")
            let page = try stranger.get("/login").text
            #expect(!page.contains("EMBARGOED"))
            #expect(page.contains("save your changes to an article"))
            pages.append(page.replacingOccurrences(of: #"value="[^"]*""#, with: "", options: .regularExpression))
        }
        #expect(pages[0] == pages[1], "the two login pages are the same but for their tokens")
        let malformed = app.client()
        let token = try malformed.formToken(on: "/login")
        #expect(try malformed.post("/editor/articles/abc", form: [("csrf_token", token)]).status == 404)
    }

    @Test func theLoginPageNamesEveryValueTheActionChanges() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let troll = try app.reader("troll")
        let id = try troll.comment(on: slug, "Something rude.")
        _ = try troll.logout()
        let moderator = app.client()
        let token = try moderator.formToken(on: "/login")
        _ = try moderator.post(
            "/users/troll/ban",
            form: [("csrf_token", token), ("hide_comments", "1"), ("note", "repeated abuse"), ("duration", "7d")])
        let page = try moderator.get("/login").text
        #expect(page.contains("ban “troll” for 7 days and hide all their comments with the note “repeated abuse”"))
        _ = id

        let reader = app.client()
        let readerToken = try reader.formToken(on: "/login")
        _ = try reader.post("/account/email", form: [("csrf_token", readerToken), ("email", "new@example.com")])
        #expect(try reader.get("/login").text.contains("change your email address to “new@example.com”"))
    }

    // MARK: Parking that strangers cannot fill

    @Test func anonymousFormsWithAFileOrOver64KBAreNotParked() throws {
        let app = try TestApp(demo: false)
        let stranger = app.client()
        let token = try stranger.formToken(on: "/login")
        let form = ArticleForm(title: "A stranger's upload", body: "Held for a day?", imageAlt: "x", action: "save")
        let withFile = try stranger.postMultipart(
            "/editor/articles",
            form.multipart(csrfToken: token, image: ("a.png", "image/png", PNGFile.rgb(width: 3, height: 2))),
            headers: Self.sameOrigin)
        #expect(withFile.status == 422)
        #expect(withFile.text.contains("value=\"A stranger&#39;s upload\"") || withFile.text.contains("A stranger"))
        #expect(withFile.text.contains("Held for a day?</textarea>"), "the text is put back")
        #expect(stranger.cookies["herald_intent"] == nil)

        // Past 64 KB a browser with no recent editor's session is refused before the body is read
        // (#29: strangers cannot hold the upload budget), so there is no text to put back: the
        // answer says the browser still has it.
        let large = String(repeating: "A long anonymous article body. ", count: 3000)  // ~90 KB
        let tooLarge = try stranger.post(
            "/editor/articles", form: [("csrf_token", token)] + ArticleForm(title: "Long", body: large).fields)
        #expect(tooLarge.status == 413)
        #expect(tooLarge.text.contains("your browser still has what you typed"))
        #expect(stranger.cookies["herald_intent"] == nil)
    }

    @Test func onlyEightAnonymousFormsAreParkedPerAddress() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        for index in 0..<8 {
            let browser = app.client()
            let token = try browser.formToken(on: "/articles/\(slug)")
            let captured = try browser.post(
                "/articles/\(slug)/comments", form: [("csrf_token", token), ("body", Self.incompressibleCJK(2000))])
            #expect(captured["Location"] == "/login", "form \(index + 1) of 8 is parked")
        }
        let ninth = app.client()
        let token = try ninth.formToken(on: "/articles/\(slug)")
        let text = Self.incompressibleCJK(2000)
        let refused = try ninth.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", text)])
        #expect(refused.status == 422)
        #expect(refused.text.contains(text), "the text comes back in the form")
    }

    @Test func anEditorsLargeSaveIsParkedWhileStrangersHaveFilledTheirPool() throws {
        let clock = TestClock()
        let app = try TestApp(demo: false) {
            $0.clock = clock.clock
            $0.parkingLimits.anonymousBytes = 20_000
        }
        let editor = try app.editor("nightdesk")
        let id = try editor.newArticle(ArticleForm(title: "Night edition", body: "Draft."))
        let editToken = try editor.formToken(on: "/editor/articles/\(id)")

        // Strangers fill the anonymous pool (three 6 KB comments pass 20 KB).
        let slug = try app.articleSlugPublished(by: editor)
        var refusedOne = false
        for _ in 0..<4 {
            let stranger = app.client()
            let token = try stranger.formToken(on: "/articles/\(slug)")
            let answer = try stranger.post(
                "/articles/\(slug)/comments", form: [("csrf_token", token), ("body", Self.incompressibleCJK(2000))])
            if answer.status == 422 { refusedOne = true }
        }
        #expect(refusedOne, "the anonymous pool is full")

        clock.advance(14 * 86_400 + 3_600)  // the editor's session expired an hour ago
        let body = longMarkdownBody(count: 100_000, marker: "END-OF-NIGHT")
        let captured = try editor.post(
            "/editor/articles/\(id)",
            form: [("csrf_token", editToken)] + ArticleForm(title: "Night edition, final", body: body).fields,
            headers: Self.sameOrigin)
        #expect(captured["Location"] == "/login", "\(captured.status)")
        let login = try editor.login("nightdesk")
        #expect(login["Location"] == "/editor/articles/\(id)")
        #expect(try editor.get("/editor/articles/\(id)").text.contains("END-OF-NIGHT"))
    }

    @Test func aLargeSaveFromABrowserWhoseSessionEndedMoreThanADayAgoIsRefusedUnread() throws {
        let clock = TestClock()
        let app = try TestApp(demo: false) { $0.clock = clock.clock }
        let editor = try app.editor("longgone")
        let id = try editor.newArticle(ArticleForm(title: "Old draft", body: "Draft."))
        let token = try editor.formToken(on: "/editor/articles/\(id)")
        clock.advance(16 * 86_400)
        let body = longMarkdownBody(count: 100_000, marker: "STILL-HERE")
        let refused = try editor.post(
            "/editor/articles/\(id)",
            form: [("csrf_token", token)] + ArticleForm(title: "Old draft", body: body).fields,
            headers: Self.sameOrigin)
        // Not read at all (#29's large-body rule): the browser keeps the text, and is told so.
        #expect(refused.status == 413)
        #expect(refused.text.contains("your browser still has what you typed"))
        #expect(!refused.text.contains("data-article-state"), "nothing of the stored article is shown")
    }

    // MARK: One list of actions

    @Test func everyPostRouteIsEitherResumableOrListedAsNotResumable() throws {
        let app = try TestApp(server: false, demo: false)
        let posts = Set(app.app.postRoutes)
        let resumable = Set(app.app.resumablePaths)
        let listed = Set(ResumableActions.notResumable.keys)
        #expect(resumable.isDisjoint(with: listed))
        #expect(posts == resumable.union(listed), "unlisted: \(posts.subtracting(resumable.union(listed)).sorted())")
        #expect(app.app.resumablePaths.count == ResumableActionName.allCases.count, "one entry per action name")
    }

    @Test func aResumedActionRunsOnTheActionPoolNotTheCallersThread() throws {
        let pool = WorkerPool(name: "resumed-actions-test", threads: 1, queueLimit: 4)
        let caller = pthread_self()
        let worker = try pool.perform { pthread_self() }
        #expect(pthread_equal(caller, worker) == 0, "performed on a pool thread")
        struct Failure: Error {}
        #expect(throws: Failure.self) { try pool.perform { throw Failure() } }
    }
}

extension TestApp {
    /// Publishes a short article as `editor` and returns its slug.
    func articleSlugPublished(by editor: any HTTPTestClient) throws -> String {
        let id = try editor.newArticle(
            ArticleForm(title: "Open for comments", body: "Comment here.", action: "publish"))
        return try editor.articleSlug(id)
    }
}
