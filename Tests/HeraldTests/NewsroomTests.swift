import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// SPEC "Newsroom (editors)" and "Roles and the command line": the desk, the article form, its
/// validation, the states of an article, scheduling, sections, feeds, unpublishing, slugs and
/// "Updated". Rule and page tests run in-process; bodies over 64 KiB go over a real socket.
@Suite struct NewsroomTests {
    // MARK: Who may use the newsroom

    /// Roles: a reader without the editor role gets 403 on every /editor GET and POST, and changes nothing.
    @Test func aReaderWithoutTheRoleIsRefusedEverywhereAndChangesNothing() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor("chief")
        let id = try editor.newArticle(ArticleForm(title: "Untouchable", body: "Kept as it is."))
        let before = try editor.deskRows()

        let reader = try app.reader("plainreader")
        let moderator = try app.reader("moderator")
        _ = try app.app.accounts.change(.moderator, of: "moderator", granted: true)
        for client in [reader, moderator] {
            for path in ["/editor", "/editor?page=1", "/editor/articles/new", "/editor/articles/\(id)"] {
                #expect(try client.get(path).status == 403, "GET \(path)")
            }
            let token = try client.formToken(on: "/")
            let create = ArticleForm(title: "Sneaked in", body: "Should never exist.", action: "publish")
            #expect(try client.post("/editor/articles", form: [("csrf_token", token)] + create.fields).status == 403)
            var edit = ArticleForm(title: "Defaced", body: "Defaced body.", action: "save")
            #expect(
                try client.post("/editor/articles/\(id)", form: [("csrf_token", token)] + edit.fields).status == 403)
            edit.action = "publish"
            #expect(
                try client.post(
                    "/editor/articles/\(id)", form: edit.fields, headers: [("Sec-Fetch-Site", "same-origin")]
                ).status == 403)
            #expect(
                try client.postMultipart(
                    "/editor/articles", create.multipart(csrfToken: token)
                ).status == 403)
        }
        #expect(try editor.deskRows() == before, "nothing was created or changed")
        let page = try editor.get("/editor/articles/\(id)").text
        #expect(page.contains("Kept as it is."))
        #expect(!page.contains("Defaced"))
        #expect(!(try editor.get("/").text.contains("Sneaked in")))
    }

    /// Roles: someone logged out who opens an /editor page gets 303 to /login?next=… naming that page.
    @Test func loggedOutEditorPagesRedirectToLoginWithNext() throws {
        let app = try TestApp(server: false, demo: false)
        let id = try app.editor().newArticle(ArticleForm(title: "Behind the login"))
        let anonymous = app.client()
        for path in ["/editor", "/editor/articles/new", "/editor/articles/\(id)", "/editor?page=2"] {
            let response = try anonymous.get(path)
            #expect(response.status == 303, "\(path)")
            let location = response["Location"] ?? ""
            #expect(location.hasPrefix("/login?next="), "\(path): \(location)")
            #expect(location.removingPercentEncoding == "/login?next=\(path)", "\(path): \(location)")
        }
        // After logging in with that next, an editor lands on the desk.
        _ = try app.client().register("latecomer")
        _ = try app.app.accounts.change(.editor, of: "latecomer", granted: true)
        let login = try anonymous.login("latecomer", next: "/editor")
        #expect(login["Location"] == "/editor")
        #expect(try anonymous.get("/editor").status == 200)
    }

    /// Rules: a cross-site POST to a newsroom route is refused with 403 and changes nothing, not even the intent cookie.
    @Test func crossSitePostsToTheNewsroomAreRefused() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let id = try editor.newArticle(ArticleForm(title: "Guarded", body: "Guarded body."))
        let before = try editor.deskRows()
        let hostile = ArticleForm(title: "Forged", body: "Forged body.", action: "publish")
        for headers in [[("Sec-Fetch-Site", "cross-site")], [("Origin", "https://evil.example")]] {
            #expect(try editor.post("/editor/articles", form: hostile.fields, headers: headers).status == 403)
            #expect(try editor.post("/editor/articles/\(id)", form: hostile.fields, headers: headers).status == 403)
            let anonymous = app.client()
            let captured = try anonymous.post("/editor/articles/\(id)", form: hostile.fields, headers: headers)
            #expect(captured.status == 403)
            #expect(anonymous.cookies["herald_intent"] == nil)
        }
        #expect(try editor.post("/editor/articles/\(id)", form: hostile.fields).status == 403, "no token, no headers")
        #expect(try editor.deskRows() == before)
        #expect(try editor.get("/editor/articles/\(id)").text.contains("Guarded body.</textarea>"))
    }

    // MARK: The desk

    /// GET /editor: drafts, scheduled and published articles, each a row with its state and a link to its edit page.
    @Test func theDeskListsEveryStateWithLinksToEditPages() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor()
        let draft = try editor.newArticle(ArticleForm(title: "Desk draft"))
        clock.advance(5)
        let scheduled = try editor.newArticle(
            ArticleForm(title: "Desk scheduled", publishAt: iso8601(clock.clock.now() + 86_400), action: "publish"))
        clock.advance(5)
        let published = try editor.newArticle(ArticleForm(title: "Desk published", action: "publish"))

        let desk = try editor.get("/editor")
        #expect(desk.status == 200)
        let rows = deskRows(in: desk.text)
        #expect(rows.map(\.id) == [published, scheduled, draft], "most recently changed first")
        #expect(rows.map(\.state) == ["published", "scheduled", "draft"])
        for row in rows {
            #expect(row.html.contains("href=\"/editor/articles/\(row.id)\""), "row \(row.id) links to its edit page")
        }
        #expect(rows.first { $0.id == draft }?.html.contains("Desk draft") == true)
    }

    /// GET /editor: most recently changed first — saving an older article moves it to the top.
    @Test func theDeskPutsTheMostRecentlyChangedFirst() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor()
        let first = try editor.newArticle(ArticleForm(title: "Written first"))
        clock.advance(60)
        let second = try editor.newArticle(ArticleForm(title: "Written second"))
        #expect(try editor.deskRows().map(\.id) == [second, first])
        clock.advance(60)
        #expect(try editor.saveArticle(first, ArticleForm(title: "Written first, edited later")).status == 303)
        #expect(try editor.deskRows().map(\.id) == [first, second])
    }

    /// GET /editor?page=N: 50 rows a page, the oldest change on the last page, 404 past the last page.
    @Test func theDeskIsPaginatedByFifty() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor()
        editor.defaultHeaders = [("Sec-Fetch-Site", "same-origin")]
        var ids: [String] = []
        for index in 1...51 {
            let created = try editor.post(
                "/editor/articles", form: ArticleForm(title: "Desk item \(index)", body: "Item \(index).").fields)
            ids.append(try #require(editedArticleID(created["Location"]), "article \(index): \(created.status)"))
            clock.advance(1)
        }
        let firstPage = try editor.deskRows()
        #expect(firstPage.count == 50)
        #expect(firstPage.first?.id == ids.last, "newest first")
        #expect(try editor.deskRows(page: 1) == firstPage)
        let secondPage = try editor.deskRows(page: 2)
        #expect(secondPage.map(\.id) == [ids[0]], "the oldest is alone on page 2")
        #expect(try editor.get("/editor?page=3").status == 404)
        #expect(Set(firstPage.map(\.id) + secondPage.map(\.id)) == Set(ids), "every article on exactly one page")
    }

    // MARK: The form

    /// GET /editor/articles/new: an empty multipart form with every field of the contract and a working CSRF token.
    @Test func theNewArticleFormHasEveryFieldAndWorksAsRendered() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let page = try editor.get("/editor/articles/new")
        try #require(page.status == 200)
        let formTag = try #require(firstMatch(#"(<form [^>]*enctype="multipart/form-data"[^>]*>)"#, in: page.text))
        #expect(formTag.contains("method=\"post\""))
        for field in ["title", "summary", "section", "byline", "image_alt", "publish_at"] {
            #expect(page.text.contains("name=\"\(field)\""), "field \(field)")
        }
        #expect(page.text.range(of: #"<textarea[^>]*name="body""#, options: .regularExpression) != nil)
        #expect(
            page.text.range(
                of: #"<input[^>]*type="file"[^>]*name="image"|<input[^>]*name="image"[^>]*type="file""#,
                options: .regularExpression) != nil)
        #expect(page.text.contains("name=\"action\""))
        #expect(page.text.contains("value=\"publish\""))
        let token = try #require(hiddenField("csrf_token", in: page.text))

        // Submitted exactly as a browser sends it (no file chosen: an empty file part).
        let form = ArticleForm(title: "Filed through the form", body: "Paragraph one.", action: "save")
        let created = try editor.postMultipart("/editor/articles", form.multipart(csrfToken: token))
        #expect(created.status == 303)
        let id = try #require(editedArticleID(created["Location"]))
        let edit = try editor.get("/editor/articles/\(id)")
        #expect(edit.status == 200)
        #expect(edit.text.contains("value=\"Filed through the form\""))
        #expect(edit.text.contains("Paragraph one.</textarea>"))
        #expect(edit.text.contains("data-article-state=\"draft\""))
    }

    /// POST /editor/articles: every field is kept — summary, section, byline, body — and shown back on the edit page.
    @Test func theEditPageIsTheFormFilledIn() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let form = ArticleForm(
            title: "Rates & \"risks\" <ahead>", summary: "A summary with <angle> & ampersand.", section: "Economy",
            byline: "Ann O'Tate", body: "Body with <tags> & \"quotes\".\n\nSecond paragraph.", action: nil)
        let id = try editor.newArticle(form)
        let page = try editor.get("/editor/articles/\(id)")
        #expect(page.status == 200)
        #expect(page.text.contains("value=\"\(escapeHTML(form.title))\""))
        #expect(page.text.contains(escapeHTML(form.summary)))
        #expect(page.text.contains("value=\"Economy\""))
        #expect(page.text.contains("value=\"\(escapeHTML(form.byline))\""))
        #expect(page.text.contains(escapeHTML(form.body) + "</textarea>"))
        #expect(!page.text.contains("<tags>"), "escaped")
        #expect(page.text.contains("data-article-state=\"draft\""), "no action means save: a draft")
        #expect(try editor.get("/editor/articles/999999").status == 404)
        #expect(
            try editor.post(
                "/editor/articles/999999", form: form.fields, headers: [("Sec-Fetch-Site", "same-origin")]
            ).status == 404)
    }

    /// Fields: each out-of-range field is 422 with the form again, its own `FIELD-error` message, and nothing stored.
    @Test func badFieldsAre422WithAPerFieldMessageAndNothingStored() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        var cases: [(String, ArticleForm)] = []
        func bad(_ field: String, _ change: (inout ArticleForm) -> Void) {
            var form = ArticleForm(title: "Valid title", body: "Valid body.", action: "save")
            change(&form)
            cases.append((field, form))
        }
        bad("title") { $0.title = "" }
        bad("title") { $0.title = String(repeating: "é", count: 201) }
        bad("summary") { $0.summary = String(repeating: "s", count: 501) }
        bad("section") { $0.section = String(repeating: "n", count: 61) }
        bad("byline") { $0.byline = String(repeating: "b", count: 101) }
        bad("body") { $0.body = "" }
        bad("publish_at") { $0.publishAt = "next tuesday" }
        bad("publish_at") { $0.publishAt = "2026-13-45T99:00:00Z" }
        bad("publish_at") {
            $0.publishAt = "2031-02-30T10:00:00Z"
            $0.action = "publish"
        }
        for (field, form) in cases {
            for action in [form.action, "publish"] {
                var form = form
                form.action = action
                let response = try editor.createArticle(form)
                try #require(response.status == 422, "\(field), \(action ?? "no action")")
                #expect(hasFieldError(field, in: response.text), "\(field), \(action ?? "no action")")
                for other in ["title", "body", "summary", "section", "byline", "publish_at"] where other != field {
                    #expect(!hasFieldError(other, in: response.text), "\(field) also blamed \(other)")
                }
                #expect(response.text.contains("enctype=\"multipart/form-data\""), "the form again")
            }
        }
        #expect(try editor.deskRows().isEmpty, "nothing stored")

        // The same rules on an existing article: 422, and the article stays as it was.
        let id = try editor.newArticle(ArticleForm(title: "Stays put", body: "Original body."))
        let emptied = try editor.saveArticle(id, ArticleForm(title: "", body: "Changed body."))
        #expect(emptied.status == 422)
        #expect(hasFieldError("title", in: emptied.text))
        #expect(emptied.text.contains("Changed body.</textarea>"), "what was typed is kept")
        let stored = try editor.get("/editor/articles/\(id)").text
        #expect(stored.contains("value=\"Stays put\""))
        #expect(stored.contains("Original body.</textarea>"))
    }

    /// Fields: the limits are counted in characters (not bytes) and the maximum of each is accepted.
    @Test func fieldsAtTheirLimitsAreAccepted() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let form = ArticleForm(
            title: String(repeating: "é", count: 200), summary: String(repeating: "ü", count: 500),
            section: String(repeating: "s", count: 60), byline: String(repeating: "ñ", count: 100),
            body: "x", action: "save")
        let created = try editor.createArticle(form)
        try #require(created.status == 303, "\(created.text.prefix(500))")
        let id = try #require(editedArticleID(created["Location"]))
        #expect(try editor.get("/editor/articles/\(id)").text.contains("value=\"\(form.title)\""))
    }

    /// Fields: a 422 gives everything typed back, escaped — inputs hold their values, the textarea the body.
    @Test func aRefusedFormKeepsEverythingTyped() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let form = ArticleForm(
            title: "Fish & \"Chips\" <b>bold</b>", summary: "Summary <i>kept</i> & safe", section: "Food & Drink",
            byline: "Chef \"Q\"", body: "", publishAt: "not a time", action: "publish")
        let response = try editor.createArticle(form)
        try #require(response.status == 422)
        #expect(response.text.contains("value=\"\(escapeHTML(form.title))\""))
        #expect(response.text.contains(escapeHTML(form.summary)))
        #expect(response.text.contains("value=\"\(escapeHTML(form.section))\""))
        #expect(response.text.contains("value=\"\(escapeHTML(form.byline))\""))
        #expect(response.text.contains("value=\"not a time\""))
        #expect(!response.text.contains("<b>bold</b>") && !response.text.contains("<i>kept</i>"))
        #expect(hasFieldError("body", in: response.text))
        #expect(hasFieldError("publish_at", in: response.text))

        var noTitle = form
        noTitle.title = ""
        noTitle.publishAt = ""
        noTitle.body = "A body with <script>x()</script> & \"quotes\"\n\nand a second paragraph."
        let kept = try editor.createArticle(noTitle)
        try #require(kept.status == 422)
        #expect(kept.text.contains(escapeHTML(noTitle.body) + "</textarea>"))
        #expect(!kept.text.contains("<script>x()"))
        #expect(try editor.deskRows().isEmpty)
    }

    /// Fields: a body of exactly 100,000 characters is accepted whole; 100,001 is 422 with the text kept (over a socket: > 64 KiB).
    @Test func aBodyOfAHundredThousandCharactersIsTheLimit() throws {
        let app = try TestApp(demo: false)
        let editor = try app.editor()
        let longest = longMarkdownBody(count: 100_000, marker: "LIMIT-MARKER-END")
        #expect(longest.count == 100_000)
        let id = try editor.newArticle(ArticleForm(title: "The longest", body: longest))
        let page = try editor.get("/editor/articles/\(id)").text
        #expect(page.contains(escapeHTML(longest) + "</textarea>"), "stored whole")

        let tooLong = longest + "!"
        let refused = try editor.createArticle(ArticleForm(title: "Too long", body: tooLong))
        try #require(refused.status == 422)
        #expect(hasFieldError("body", in: refused.text))
        #expect(refused.text.contains(escapeHTML(tooLong) + "</textarea>"))
        #expect(try editor.deskRows().map(\.id) == [id])
    }

    // MARK: States

    /// POST /editor/articles/{id}: save, publish and unpublish answer 303 back to the edit page with "Saved", "Published", "Unpublished".
    @Test func saveThenPublishThenUnpublishWithFlashes() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let id = try editor.newArticle(ArticleForm(title: "Lifecycle", body: "First version."))
        #expect(try editor.get("/editor/articles/\(id)").text.contains("data-article-state=\"draft\""))

        let saved = try editor.saveArticle(id, ArticleForm(title: "Lifecycle", body: "Second version."))
        #expect(saved.status == 303)
        #expect(saved["Location"] == "/editor/articles/\(id)")
        let afterSave = try editor.follow(saved).text
        #expect(flashText(in: afterSave)?.contains("Saved") == true)
        #expect(afterSave.contains("data-article-state=\"draft\""))
        #expect(afterSave.contains("Second version.</textarea>"))
        let slug = try editor.articleSlug(id)
        #expect(try app.client().get("/articles/\(slug)").status == 404, "a draft is not public")

        let published = try editor.saveArticle(
            id, ArticleForm(title: "Lifecycle", body: "Published version.", action: "publish"))
        #expect(published.status == 303)
        #expect(published["Location"] == "/editor/articles/\(id)")
        let afterPublish = try editor.follow(published).text
        #expect(flashText(in: afterPublish)?.contains("Published") == true)
        #expect(afterPublish.contains("data-article-state=\"published\""))
        let publicSlug = try editor.articleSlug(id)
        let article = try app.client().get("/articles/\(publicSlug)")
        #expect(article.status == 200)
        #expect(article.text.contains("Published version."))
        #expect(!article.text.contains("data-draft-banner"))

        let unpublished = try editor.saveArticle(
            id, ArticleForm(title: "Lifecycle", body: "Published version.", action: "unpublish"))
        #expect(unpublished.status == 303)
        #expect(unpublished["Location"] == "/editor/articles/\(id)")
        let afterUnpublish = try editor.follow(unpublished).text
        #expect(flashText(in: afterUnpublish)?.contains("Unpublished") == true)
        #expect(!afterUnpublish.contains("data-article-state=\"published\""))
        #expect(try app.client().get("/articles/\(publicSlug)").status == 404)
        // The flash is shown once.
        #expect(flashText(in: try editor.get("/editor/articles/\(id)").text) == nil)
    }

    /// POST /editor/articles with action=publish: published at once on /, the article page (with the author), and /feed.atom.
    @Test func publishingShowsTheArticleAtOnceEverywhere() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor("newsdesk")
        let reader = app.client()
        #expect(try reader.get("/").status == 200, "the front page is cached before publishing")
        _ = try reader.get("/feed.atom")

        let created = try editor.createArticle(
            ArticleForm(
                title: "Breaking: the bridge reopens", summary: "Traffic flows again.", body: "It reopened.",
                action: "publish"))
        try #require(created.status == 303)
        let id = try #require(editedArticleID(created["Location"]))
        #expect(flashText(in: try editor.follow(created).text)?.contains("Published") == true)
        let slug = try editor.articleSlug(id)

        let front = try reader.get("/").text
        #expect(front.contains("href=\"/articles/\(slug)\""))
        #expect(front.contains("Breaking: the bridge reopens"))
        let page = try reader.get("/articles/\(slug)")
        #expect(page.status == 200)
        #expect(page.text.contains("<span class=\"author\">newsdesk</span>"), "no byline: the username")
        #expect(page.text.contains("<p>It reopened.</p>"))
        let feed = try reader.get("/feed.atom").text
        #expect(feed.contains("/articles/\(slug)"))
        #expect(atomEntries(containing: "Breaking: the bridge reopens", in: feed).count == 1)
    }

    /// Author: the article page shows the byline when there is one, in `<span class="author">`.
    @Test func theBylineIsTheAuthorShown() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor("deskhand")
        let id = try editor.newArticle(
            ArticleForm(title: "By someone else", byline: "Jane Q. Reporter", body: "Words.", action: "publish"))
        let page = try app.client().get("/articles/\(try editor.articleSlug(id))").text
        #expect(page.contains("<span class=\"author\">Jane Q. Reporter</span>"))
        #expect(!page.contains("<span class=\"author\">deskhand</span>"))
    }

    /// A draft or scheduled article is 404 for everyone but editors, who see it with a "Draft" banner; it is on no listing.
    @Test func draftsAndScheduledArticlesAreOnlyForEditors() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor()
        let draft = try editor.newArticle(
            ArticleForm(title: "Embargoed draft story", section: "Secrets", body: "Not yet."))
        let scheduled = try editor.newArticle(
            ArticleForm(
                title: "Embargoed scheduled story", section: "Secrets", body: "Not yet either.",
                publishAt: iso8601(clock.clock.now() + 7_200), action: "publish"))
        let reader = try app.reader("curious")
        let moderator = try app.reader("watchful")
        _ = try app.app.accounts.change(.moderator, of: "watchful", granted: true)
        for id in [draft, scheduled] {
            let slug = try editor.articleSlug(id)
            #expect(try app.client().get("/articles/\(slug)").status == 404, "anonymous, \(slug)")
            #expect(try reader.get("/articles/\(slug)").status == 404, "reader, \(slug)")
            #expect(try moderator.get("/articles/\(slug)").status == 404, "moderator, \(slug)")
            let seen = try editor.get("/articles/\(slug)")
            #expect(seen.status == 200, "editor, \(slug)")
            #expect(seen.text.contains("data-draft-banner"))
        }
        for path in ["/", "/feed.atom"] {
            let text = try app.client().get(path).text
            #expect(!text.contains("Embargoed"), "\(path)")
        }
        #expect(!sectionsNav(in: try app.client().get("/").text).contains("/sections/secrets"))
    }

    // MARK: Scheduling

    /// publish with a future publish_at: "Scheduled", hidden until the clock passes it, then public everywhere without a restart.
    @Test func aScheduledArticleAppearsByItselfWhenItsTimeComes() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor()
        let reader = app.client()
        let publishAt = clock.clock.now() + 3_600
        let id = try editor.newArticle(ArticleForm(title: "Midnight release", section: "Culture", body: "Draft."))
        let scheduled = try editor.saveArticle(
            id,
            ArticleForm(
                title: "Midnight release", section: "Culture", body: "At last.", publishAt: iso8601(publishAt),
                action: "publish"))
        #expect(scheduled.status == 303)
        #expect(scheduled["Location"] == "/editor/articles/\(id)")
        let page = try editor.follow(scheduled).text
        #expect(flashText(in: page)?.contains("Scheduled") == true)
        #expect(page.contains("data-article-state=\"scheduled\""))
        #expect(try editor.deskRows().first { $0.id == id }?.state == "scheduled")
        let slug = try editor.articleSlug(id)
        // Looked at (and so cached, if pages are cached) before the time comes.
        #expect(try reader.get("/articles/\(slug)").status == 404)
        #expect(!(try reader.get("/").text.contains("Midnight release")))
        #expect(!(try reader.get("/feed.atom").text.contains("Midnight release")))

        clock.advance(3_540)
        #expect(try reader.get("/articles/\(slug)").status == 404, "a minute early")

        clock.advance(61)
        let publicSlug = try editor.articleSlug(id)
        let article = try reader.get("/articles/\(publicSlug)")
        #expect(article.status == 200)
        #expect(article.text.contains("At last."))
        #expect(!article.text.contains("data-draft-banner"))
        #expect(try reader.get("/").text.contains("href=\"/articles/\(publicSlug)\""))
        #expect(try reader.get("/feed.atom").text.contains("Midnight release"))
        #expect(try reader.get("/sections/culture").text.contains("href=\"/articles/\(publicSlug)\""))
        #expect(try reader.get("/sections/culture/feed.atom").text.contains("Midnight release"))
        #expect(sectionsNav(in: try reader.get("/").text).contains("href=\"/sections/culture\""))
        #expect(try editor.get("/editor/articles/\(id)").text.contains("data-article-state=\"published\""))
        #expect(try editor.deskRows().first { $0.id == id }?.state == "published")
    }

    /// publish_at without a zone (`2026-12-01T10:00`, as a datetime-local input sends it) is taken as UTC.
    @Test func aPublishTimeWithoutAZoneIsUTC() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor()
        let now = clock.clock.now()
        let target = (now + 2 * 3_600) / 60 * 60  // a whole minute, about two hours ahead
        let created = try editor.createArticle(
            ArticleForm(
                title: "Local-looking time", body: "Text.", publishAt: iso8601(target, withZone: false),
                action: "publish"))
        #expect(created.status == 303)
        let id = try #require(editedArticleID(created["Location"]))
        #expect(flashText(in: try editor.follow(created).text)?.contains("Scheduled") == true)
        let slug = try editor.articleSlug(id)
        clock.advance(target - now - 60)
        #expect(try app.client().get("/articles/\(slug)").status == 404, "a minute before, in UTC")
        clock.advance(61)
        #expect(try app.client().get("/articles/\(try editor.articleSlug(id))").status == 200, "just after, in UTC")
    }

    // MARK: Markdown

    /// Markdown: CommonMark with GFM tables, strikethrough and autolinks; raw HTML escaped; javascript:/data: links lose their href; `#` is h2.
    @Test func markdownIsRenderedSafelyInThePreviewAndOnThePage() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let body = """
            # Big Heading

            Intro with ~~gone~~ text, **strong** words and https://example.com/auto-link here.

            | Left | Right |
            | ---- | ----- |
            | one  | two   |

            <script>alert(1)</script>

            [js link](javascript:alert(1)) and [JS upper](JAVASCRIPT:alert(2)) and \
            [data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==) and [good link](https://example.org/ok).
            """
        let id = try editor.newArticle(ArticleForm(title: "Markdown check", body: body))
        let edit = try editor.get("/editor/articles/\(id)").text
        let preview = try #require(previewSection(in: edit), "the edit page has a preview")
        #expect(!edit.contains("<script>alert"))
        for html in [preview, try editor.get("/articles/\(try editor.articleSlug(id))").text] {
            #expect(html.range(of: #"<h2[^>]*>Big Heading</h2>"#, options: .regularExpression) != nil)
            #expect(html.contains("<del>gone</del>"))
            #expect(html.contains("<strong>strong</strong>"))
            #expect(html.contains("href=\"https://example.com/auto-link\""))
            #expect(html.contains("<table"))
            #expect(html.range(of: #"<td[^>]*>one</td>"#, options: .regularExpression) != nil)
            #expect(html.contains("&lt;script&gt;alert(1)"))
            #expect(!html.contains("<script>alert"))
            #expect(
                html.range(
                    of: #"href\s*=\s*["']?\s*(javascript|data):"#, options: [.regularExpression, .caseInsensitive])
                    == nil)
            #expect(
                html.contains("js link") && html.contains("JS upper") && html.contains("data link"), "link text stays")
            #expect(html.contains("href=\"https://example.org/ok\""))
        }
        #expect(!preview.contains("<h1"))
        _ = try editor.saveArticle(id, ArticleForm(title: "Markdown check", body: body, action: "publish"))
        let page = try app.client().get("/articles/\(try editor.articleSlug(id))").text
        #expect(occurrences(of: "<h1", in: page) == 1, "the title is the only h1")
        #expect(page.range(of: #"<h1[^>]*>[^<]*Markdown check"#, options: .regularExpression) != nil)
        #expect(page.range(of: #"<h2[^>]*>Big Heading</h2>"#, options: .regularExpression) != nil)
        #expect(!page.contains("<script>alert"))
        #expect(
            page.range(of: #"href\s*=\s*["']?\s*(javascript|data):"#, options: [.regularExpression, .caseInsensitive])
                == nil)
    }

    // MARK: Sections

    /// Sections: "World News" lives at /sections/world-news, linked from the article and from every page's header once published.
    @Test func sectionsHaveSlugsPagesHeaderLinksAndFeeds() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let world = try editor.newArticle(
            ArticleForm(title: "Summit ends in agreement", section: "World News", body: "Talks.", action: nil))
        #expect(!sectionsNav(in: try app.client().get("/").text).contains("/sections/world-news"), "only a draft yet")
        _ = try editor.saveArticle(
            world,
            ArticleForm(title: "Summit ends in agreement", section: "World News", body: "Talks.", action: "publish"))
        let sport = try editor.newArticle(
            ArticleForm(title: "Cup final goes to penalties", section: "Sport", body: "Drama.", action: "publish"))
        let worldSlug = try editor.articleSlug(world)
        let sportSlug = try editor.articleSlug(sport)
        let reader = app.client()

        let section = try reader.get("/sections/world-news")
        try #require(section.status == 200)
        #expect(section.text.contains("href=\"/articles/\(worldSlug)\""))
        #expect(!section.text.contains("href=\"/articles/\(sportSlug)\""))
        #expect(section.text.contains("World News"))

        let article = try reader.get("/articles/\(worldSlug)").text
        let ownLinks = withoutSectionsNav(article)
        #expect(
            ownLinks.range(
                of: #"<a [^>]*href="/sections/world-news"[^>]*>\s*World News\s*</a>"#,
                options: .regularExpression) != nil, "the article links its section by name")

        for path in ["/", "/login", "/articles/\(sportSlug)", "/sections/sport"] {
            let nav = sectionsNav(in: try reader.get(path).text)
            #expect(nav.contains("href=\"/sections/world-news\""), "\(path)")
            #expect(nav.contains("href=\"/sections/sport\""), "\(path)")
        }

        let feed = try reader.get("/sections/world-news/feed.atom")
        #expect(feed.status == 200)
        #expect(feed["Content-Type"]?.hasPrefix("application/atom+xml") == true)
        #expect(atomEntries(containing: "Summit ends in agreement", in: feed.text).count == 1)
        #expect(!feed.text.contains("Cup final goes to penalties"))

        #expect(try reader.get("/sections/no-such-section").status == 404)
        #expect(try reader.get("/sections/no-such-section/feed.atom").status == 404)

        // Once its only article is unpublished, the section leaves the header.
        _ = try editor.saveArticle(
            sport,
            ArticleForm(title: "Cup final goes to penalties", section: "Sport", body: "Drama.", action: "unpublish"))
        #expect(!sectionsNav(in: try reader.get("/").text).contains("href=\"/sections/sport\""))
        #expect(sectionsNav(in: try reader.get("/").text).contains("href=\"/sections/world-news\""))
    }

    /// GET /sections/{slug}?page=N: 20 a page, newest first, like `/`; past the last page 404.
    @Test func sectionPagesArePaginatedLikeTheFrontPage() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor()
        editor.defaultHeaders = [("Sec-Fetch-Site", "same-origin")]
        for index in 1...21 {
            let title = String(format: "Long read number %02d", index)
            let created = try editor.post(
                "/editor/articles",
                form: ArticleForm(title: title, section: "Long Reads", body: "Read \(index).", action: "publish").fields
            )
            try #require(created.status == 303, "\(title)")
            clock.advance(60)
        }
        let reader = app.client()
        let first = try reader.get("/sections/long-reads")
        try #require(first.status == 200)
        #expect(first.text.contains("Long read number 21"))
        #expect(first.text.contains("Long read number 02"))
        #expect(!first.text.contains("Long read number 01"))
        let newest = try #require(first.text.range(of: "Long read number 21"))
        let older = try #require(first.text.range(of: "Long read number 20"))
        #expect(newest.lowerBound < older.lowerBound, "newest first")
        let second = try reader.get("/sections/long-reads?page=2")
        #expect(second.status == 200)
        #expect(second.text.contains("Long read number 01"))
        #expect(!second.text.contains("Long read number 02"))
        #expect(try reader.get("/sections/long-reads?page=3").status == 404)
        #expect(try reader.get("/sections/long-reads?page=0").status == 400)
        #expect(try reader.get("/sections/long-reads?page=abc").status == 400)
    }

    // MARK: Unpublishing, slugs, updates

    /// Unpublish: the page is 404 to readers and off the listings; republished, its likes and comments are still there.
    @Test func unpublishingHidesTheArticleAndKeepsItsLikesAndComments() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let form = ArticleForm(title: "Kept through a pause", section: "Local", body: "The story.", action: "publish")
        let id = try editor.newArticle(form)
        let slug = try editor.articleSlug(id)
        let reader = try app.reader("loyal")
        #expect(try reader.submitLikeForm(slug).status == 303)
        let token = try reader.formToken(on: "/articles/\(slug)")
        #expect(
            try reader.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", "Still here later.")])
                .status == 303)
        #expect(try reader.likeCount(slug) == 1)

        var pause = form
        pause.action = "unpublish"
        let unpublished = try editor.saveArticle(id, pause)
        #expect(unpublished.status == 303)
        #expect(flashText(in: try editor.follow(unpublished).text)?.contains("Unpublished") == true)
        #expect(try reader.get("/articles/\(slug)").status == 404)
        #expect(try app.client().get("/articles/\(slug)").status == 404)
        #expect(!(try app.client().get("/").text.contains("href=\"/articles/\(slug)\"")))
        #expect(!(try app.client().get("/feed.atom").text.contains("Kept through a pause")))
        #expect(try editor.deskRows().first { $0.id == id }.map { $0.state != "published" } == true)
        #expect(try editor.get("/articles/\(slug)").text.contains("data-draft-banner"))
        // Nor can it be liked or unliked meanwhile: 404, and its count stays as it was.
        let accountToken = try reader.formToken(on: "/account")
        for action in ["like", "unlike"] {
            #expect(try reader.post("/articles/\(slug)/\(action)", form: [("csrf_token", accountToken)]).status == 404)
        }

        let republished = try editor.saveArticle(id, form)
        #expect(flashText(in: try editor.follow(republished).text)?.contains("Published") == true)
        #expect(try editor.articleSlug(id) == slug, "the same address")
        let page = try reader.get("/articles/\(slug)")
        #expect(page.status == 200)
        #expect(page.text.contains("data-like-count=\"1\""))
        #expect(page.text.contains("Still here later."))
        #expect(page.text.contains("action=\"/articles/\(slug)/unlike\""), "still liked by this reader")
    }

    /// A published article keeps its URL when its title changes; the new title shows there.
    @Test func theSlugIsFixedAtFirstPublication() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let id = try editor.newArticle(ArticleForm(title: "Original headline here", body: "Body.", action: "publish"))
        let slug = try editor.articleSlug(id)
        let saved = try editor.saveArticle(id, ArticleForm(title: "A completely different title", body: "Body."))
        #expect(saved.status == 303)
        #expect(try editor.articleSlug(id) == slug)
        #expect(try editor.get("/editor/articles/\(id)").text.contains("data-article-state=\"published\""))
        let page = try app.client().get("/articles/\(slug)")
        #expect(page.status == 200)
        let heading = try #require(firstMatch(#"(?s)<h1[^>]*>(.*?)</h1>"#, in: page.text))
        #expect(heading.contains("A completely different title"))
        #expect(!page.text.contains("Original headline here"))
        #expect(try app.client().get("/").text.contains("A completely different title"))

        // Unpublished and published again under yet another title: still the first slug.
        _ = try editor.saveArticle(
            id, ArticleForm(title: "A completely different title", body: "Body.", action: "unpublish"))
        _ = try editor.saveArticle(id, ArticleForm(title: "Third title of the day", body: "Body.", action: "publish"))
        #expect(try editor.articleSlug(id) == slug)
        #expect(try app.client().get("/articles/\(slug)").text.contains("Third title of the day"))
    }

    /// An article edited after publishing shows "Updated" with the time (`data-updated`), and its Atom `<updated>` moves past `<published>`.
    @Test func anEditAfterPublishingShowsUpdated() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor()
        let form = ArticleForm(title: "Count results", section: "Politics", body: "Early count.", action: "publish")
        let id = try editor.newArticle(form)
        let slug = try editor.articleSlug(id)
        #expect(!(try app.client().get("/articles/\(slug)").text.contains("data-updated")), "not edited yet")

        clock.advance(2 * 3_600)
        var correction = form
        correction.body = "Final count."
        correction.action = "save"
        #expect(try editor.saveArticle(id, correction).status == 303)
        let page = try app.client().get("/articles/\(slug)").text
        #expect(page.contains("Final count."))
        let marker = try #require(page.range(of: "data-updated"))
        let around = String(page[marker.lowerBound...].prefix(400))
        #expect(around.contains("Updated"))
        #expect(around.contains("<time"))
        #expect(around.contains(String(iso8601(clock.clock.now()).prefix(13))), "the time of the edit")

        for path in ["/feed.atom", "/sections/politics/feed.atom"] {
            let feed = try app.client().get(path).text
            let entry = try #require(atomEntries(containing: "Count results", in: feed).first, "\(path)")
            let published = try #require(firstMatch(#"<published>([^<]+)</published>"#, in: entry))
            let updated = try #require(firstMatch(#"<updated>([^<]+)</updated>"#, in: entry))
            #expect(updated != published, "\(path)")
            #expect(updated > published, "\(path)")
        }
    }
}
