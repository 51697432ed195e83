import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// SPEC "Resumable everywhere, and nothing typed is lost" for the newsroom: an editor whose
/// session expired while the article form was open loses nothing. The save is captured (the
/// draft parked server-side when it is too big for the cookie), performed once after login, and
/// refused with the text given back when the account that logs in is not an editor.
@Suite struct DraftParkingTests {
    /// An hour past the 14-day idle limit: the session cookie the browser still holds is void, but
    /// it was the editor's within the last day, which a save past 64 KiB needs (`LargeBodyTests`).
    static let expiry = 14 * 86_400 + 3_600
    static let sameOrigin = [("Sec-Fetch-Site", "same-origin")]

    /// The login page says an action is pending (SPEC: it says so and offers to cancel it).
    private func expectPendingOnLoginPage(
        _ client: any HTTPTestClient, sourceLocation: SourceLocation = #_sourceLocation
    )
        throws
    {
        let login = try client.get("/login")
        #expect(login.status == 200, sourceLocation: sourceLocation)
        #expect(login.text.contains("Log in to"), sourceLocation: sourceLocation)
        #expect(login.text.contains("action=\"/intent/cancel\""), sourceLocation: sourceLocation)
    }

    private func isLoginRedirect(_ response: TestResponse) -> Bool {
        guard response.status == 303, let location = response["Location"] else { return false }
        return location == "/login" || location.hasPrefix("/login?")
    }

    /// Resumable: a 100,000-character save made after the session expired (browser headers) is performed once after login, text intact.
    @Test func aHundredThousandCharacterSaveSurvivesAnExpiredSession() throws {
        let clock = TestClock()
        let app = try TestApp(demo: false) { $0.clock = clock.clock }
        let editor = try app.editor("longform")
        let id = try editor.newArticle(ArticleForm(title: "Long read", body: "A first short draft."))
        let page = try editor.get("/editor/articles/\(id)")
        let token = try #require(hiddenField("csrf_token", in: page.text))

        clock.advance(Self.expiry)
        let marker = "UNIQUE-END-MARKER-4f9c2e"
        let body = longMarkdownBody(count: 100_000, marker: marker)
        #expect(body.count == 100_000)
        let form = ArticleForm(title: "Long read, finished", summary: "All of it.", body: body, action: "save")
        let captured = try editor.post(
            "/editor/articles/\(id)", form: [("csrf_token", token)] + form.fields, headers: Self.sameOrigin)
        #expect(isLoginRedirect(captured), "\(captured.status) \(captured["Location"] ?? "")")
        #expect(editor.cookies["herald_intent"] != nil)
        let intent = try #require(editor.cookies["herald_intent"])
        #expect(intent.utf8.count < 4096, "the draft is parked, the cookie only names it")
        try expectPendingOnLoginPage(editor)

        let login = try editor.login("longform")
        #expect(login.status == 303)
        #expect(login["Location"] == "/editor/articles/\(id)")
        let resumed = try editor.follow(login).text
        #expect(flashText(in: resumed)?.contains("Saved") == true)
        #expect(resumed.contains("value=\"Long read, finished\""))
        #expect(resumed.contains(marker + "</textarea>"))
        #expect(resumed.contains(escapeHTML(body) + "</textarea>"), "the whole text, exactly")
        #expect(occurrences(of: marker, in: resumed) >= 1)

        // Performed once: after a later edit, replaying the old intent cookie changes nothing.
        #expect(try editor.saveArticle(id, ArticleForm(title: "Long read", body: "Cut down to size.")).status == 303)
        let replayer = app.client()
        replayer.setCookie("herald_intent", intent)
        _ = try replayer.login("longform")
        let after = try editor.get("/editor/articles/\(id)").text
        #expect(after.contains("Cut down to size.</textarea>"))
        #expect(!after.contains(marker))
        #expect(try editor.deskRows().map(\.id) == [id])
    }

    /// Resumable: with no browser headers, the csrf_token from the page the editor had open before the session expired is accepted.
    @Test func theFormsOwnTokenStillWorksAfterTheSessionExpired() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor("plainbrowser")
        let id = try editor.newArticle(ArticleForm(title: "Quiet edit", body: "Before."))
        let token = try #require(hiddenField("csrf_token", in: try editor.get("/editor/articles/\(id)").text))

        clock.advance(Self.expiry)
        let text = "After the weekend: <b>bold</b> & \"quoted\" text, typed with the session long gone."
        let captured = try editor.post(
            "/editor/articles/\(id)",
            form: [("csrf_token", token)] + ArticleForm(title: "Quiet edit", body: text, action: "save").fields)
        #expect(isLoginRedirect(captured), "\(captured.status) \(captured["Location"] ?? "")")
        try expectPendingOnLoginPage(editor)

        let login = try editor.login("plainbrowser")
        #expect(login["Location"] == "/editor/articles/\(id)")
        let resumed = try editor.follow(login).text
        #expect(flashText(in: resumed)?.contains("Saved") == true)
        #expect(resumed.contains(escapeHTML(text) + "</textarea>"))
        #expect(try editor.deskRows().map(\.id) == [id], "saved into the same article, not a new one")
    }

    /// Resumable: a new article with an image, posted from the new-article form after the session expired, is created once after login.
    @Test func aNewArticleWithAnImageSurvivesAnExpiredSession() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor("photodesk")
        let token = try #require(hiddenField("csrf_token", in: try editor.get("/editor/articles/new").text))

        clock.advance(Self.expiry)
        let form = ArticleForm(
            title: "Picture of the day", body: "Taken at dawn.", imageAlt: "A harbour at dawn", action: "save")
        let captured = try editor.postMultipart(
            "/editor/articles",
            form.multipart(csrfToken: token, image: ("dawn.jpg", "image/jpeg", PNGFile.rgb(width: 3, height: 2))),
            headers: Self.sameOrigin)
        #expect(isLoginRedirect(captured), "\(captured.status) \(captured["Location"] ?? "")")
        let intent = try #require(editor.cookies["herald_intent"])
        try expectPendingOnLoginPage(editor)

        let login = try editor.login("photodesk")
        #expect(login.status == 303)
        let location = try #require(login["Location"])
        let id = try #require(firstMatch(#"^/editor/articles/([^/?#]+)$"#, in: location), "\(location)")
        let resumed = try editor.follow(login).text
        #expect(flashText(in: resumed)?.contains("Saved") == true)
        #expect(resumed.contains("value=\"Picture of the day\""))
        #expect(resumed.contains("Taken at dawn.</textarea>"))
        #expect(resumed.contains("data-article-state=\"draft\""))

        let draft = try editor.get("/articles/\(try editor.articleSlug(id))")
        #expect(draft.status == 200)
        #expect(draft.text.contains("data-draft-banner"))
        let tag = try #require(
            firstMatch(#"(<img [^>]*src="/media/[0-9a-f]{64}\.png"[^>]*>)"#, in: draft.text), "the image came through")
        #expect(tag.contains("width=\"3\"") && tag.contains("height=\"2\""))
        #expect(tag.contains("alt=\"A harbour at dawn\""))
        let name = try #require(firstMatch(#"src="/media/([^"]+)""#, in: tag))
        #expect(try app.client().get("/media/\(name)").status == 200)

        // Performed once: the old cookie replayed after another login creates nothing.
        let replayer = app.client()
        replayer.setCookie("herald_intent", intent)
        _ = try replayer.login("photodesk")
        #expect(try editor.deskRows().map(\.id) == [id])
    }

    /// Resumable: when the account that logs in is not an editor, nothing is saved; 403 with the typed text in a textarea.
    @Test func aReaderWhoLogsInWithAPendingEditGetsTheTextBackAndNothingChanges() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor("sharedlaptop")
        let id = try editor.newArticle(ArticleForm(title: "Untouched", body: "The original body."))
        _ = try app.reader("justreading")

        clock.advance(Self.expiry)
        let text = "Edits typed <em>by hand</em> & \"not\" to be lost."
        let captured = try editor.post(
            "/editor/articles/\(id)", form: ArticleForm(title: "Untouched", body: text, action: "publish").fields,
            headers: Self.sameOrigin)
        #expect(isLoginRedirect(captured), "\(captured.status) \(captured["Location"] ?? "")")

        let refused = try editor.login("justreading")
        #expect(refused.status == 403)
        let textarea = try #require(refused.text.range(of: "<textarea"), "the text comes back in a textarea")
        #expect(refused.text[textarea.lowerBound...].contains(escapeHTML(text) + "</textarea>"))
        #expect(!refused.text.contains("<em>by hand</em>"))

        let chief = app.client()
        _ = try chief.login("sharedlaptop")
        let page = try chief.get("/editor/articles/\(id)").text
        #expect(page.contains("The original body.</textarea>"))
        #expect(!page.contains("by hand"))
        #expect(page.contains("data-article-state=\"draft\""), "not published either")
        #expect(try chief.deskRows().map(\.id) == [id])
    }

    /// Resumable: a new article captured from the new-article form and then a non-editor login: 403 with the text, no article created.
    @Test func aReaderWhoLogsInWithAPendingNewArticleGetsTheTextBackAndNothingIsCreated() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor("nightshift")
        let token = try #require(hiddenField("csrf_token", in: try editor.get("/editor/articles/new").text))
        _ = try app.reader("daytime")

        clock.advance(Self.expiry)
        let body = "A whole new story & its <details>, written overnight."
        let captured = try editor.post(
            "/editor/articles",
            form: [("csrf_token", token)] + ArticleForm(title: "Overnight story", body: body, action: "save").fields,
            headers: Self.sameOrigin)
        #expect(isLoginRedirect(captured), "\(captured.status) \(captured["Location"] ?? "")")
        try expectPendingOnLoginPage(editor)

        let refused = try editor.login("daytime")
        #expect(refused.status == 403)
        let textarea = try #require(refused.text.range(of: "<textarea"))
        #expect(refused.text[textarea.lowerBound...].contains(escapeHTML(body) + "</textarea>"))
        #expect(!refused.text.contains("<details>"))

        let chief = app.client()
        _ = try chief.login("nightshift")
        #expect(try chief.deskRows().isEmpty, "no article was created")
    }
}
