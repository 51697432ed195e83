import Foundation
import HTTP
import TestSupport
import Testing

@testable import Herald

/// Issue #32, item 3: the desk filters by state, section and author, and searches titles; the
/// filters are a GET form (no script), and the pages' links keep them.
@Suite struct DeskFilterTests {
    private func rows(_ editor: any HTTPTestClient, _ query: String) throws -> [DeskRow] {
        let response = try editor.get("/editor" + query)
        guard response.status == 200 else { throw TestClientError("/editor\(query) answered \(response.status)") }
        return deskRows(in: response.text)
    }

    @Test func filtersByStateSectionAuthorAndTitleWords() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor()
        let draft = try editor.newArticle(ArticleForm(title: "Harbour draft", section: "Harbour", byline: "Ann"))
        let scheduled = try editor.newArticle(
            ArticleForm(
                title: "Later news", section: "Sport", byline: "Ben",
                publishAt: iso8601(clock.clock.now() + 86_400), action: "publish"))
        let published = try editor.newArticle(
            ArticleForm(title: "Ferries 100% back", section: "Harbour", byline: "Ben", action: "publish"))

        #expect(try rows(editor, "").map(\.id) == [published, scheduled, draft])
        #expect(try rows(editor, "?state=draft").map(\.id) == [draft])
        #expect(try rows(editor, "?state=scheduled").map(\.id) == [scheduled])
        #expect(try rows(editor, "?state=published").map(\.id) == [published])
        #expect(try rows(editor, "?section=harbour").map(\.id) == [published, draft])
        #expect(try rows(editor, "?author=Ben").map(\.id) == [published, scheduled])
        #expect(try rows(editor, "?author=Ben&section=sport").map(\.id) == [scheduled])
        // Every word, in any case; LIKE's own characters are taken literally.
        #expect(try rows(editor, "?q=ferries+BACK").map(\.id) == [published])
        #expect(try rows(editor, "?q=100%25").map(\.id) == [published])
        #expect(try rows(editor, "?q=10_").map(\.id) == [])
        #expect(try rows(editor, "?q=+&state=").map(\.id).count == 3, "empty filters are no filters")

        let page = try editor.get("/editor?state=draft&author=Ann").text
        #expect(page.contains("<option value=\"draft\" selected>Draft</option>"))
        #expect(page.contains("<option value=\"Ann\" selected>Ann</option>"))
        #expect(page.contains("<option value=\"harbour\">Harbour</option>"))
        #expect(page.contains("<a href=\"/editor\">Show all</a>"))
        // The filter's choices do not take the place of the header's own list of sections.
        #expect(sectionsNav(in: page).contains("<a href=\"/sections/harbour\">Harbour</a>"))
        #expect(!page.contains("<a href=\"\">"))
        #expect(try editor.get("/editor?state=published&q=nothing").text.contains("No article matches these filters."))
    }

    @Test func badFiltersAre400() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        #expect(try editor.get("/editor?state=deleted").status == 400)
        #expect(try editor.get("/editor?q=" + String(repeating: "a", count: 201)).status == 400)
        #expect(try editor.get("/editor?q=" + String(repeating: "a", count: 200)).status == 200)
        #expect(try app.reader("nosy").get("/editor?state=draft").status == 403)
    }

    @Test func thePagesLinksKeepTheFilters() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        for index in 0...Newsroom.deskPageSize {
            _ = try app.app.articles.importArticles(
                [
                    IncomingArticle(
                        sourceID: "d\(index)", title: "Desk story \(index)", summary: "", body: "Text.", author: "Wire",
                        section: "world", publishedAt: 1_700_000_000 + index)
                ], now: 1_700_000_000 + index)
        }
        let page = try editor.get("/editor?state=published&q=story").text
        #expect(deskRows(in: page).count == Newsroom.deskPageSize)
        #expect(page.contains("href=\"/editor?state=published&amp;q=story&amp;page=2\""))
        #expect(try rows(editor, "?state=published&q=story&page=2").count == 1)
    }

    @Test func likeEscapingKeepsWordsLiteral() {
        #expect(ArticleStore.likeEscaped("50%_off!") == "50!%!_off!!")
    }
}
