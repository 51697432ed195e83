import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// Issue #32, item 3: the editor's Preview button works without script — the form comes back with
/// the text as readers will see it above it — and saves nothing, live or resumed after a login.
@Suite struct EditorPreviewTests {
    static let sameOrigin = [("Sec-Fetch-Site", "same-origin")]

    private func previewFirst(in html: String) -> String? {
        firstMatch(#"(?s)<section class="preview preview-first" data-preview[^>]*>(.*?)</section>"#, in: html)
    }

    @Test func aNewArticleIsPreviewedAndNotSaved() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        let before = try editor.deskRows()
        let body = "## Start\n\nSome **bold** <words>."
        let response = try editor.createArticle(ArticleForm(title: "Work in progress", body: body, action: "preview"))
        #expect(response.status == 200)
        #expect(response.text.contains("This is a preview: nothing is saved yet."))
        let preview = try #require(previewFirst(in: response.text))
        #expect(preview.contains("<h2>Start</h2>"))
        #expect(preview.contains("<strong>bold</strong> &lt;words&gt;."))
        // The form keeps everything typed and still posts to the new-article address.
        #expect(response.text.contains("value=\"Work in progress\""))
        #expect(response.text.contains(">\(escapeHTML(body))</textarea>"))
        #expect(response.text.contains("action=\"/editor/articles\""))
        #expect(try editor.deskRows() == before)
    }

    @Test func previewingAnEditChangesNothingStored() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        let id = try editor.newArticle(ArticleForm(title: "Stored", body: "The stored text."))
        let response = try editor.saveArticle(
            id, ArticleForm(title: "Changed", body: "A *new* text.", action: "preview"))
        #expect(response.status == 200)
        #expect(try #require(previewFirst(in: response.text)).contains("A <em>new</em> text."))
        #expect(response.text.contains("action=\"/editor/articles/\(id)\""))
        let stored = try editor.get("/editor/articles/\(id)").text
        #expect(stored.contains("value=\"Stored\""))
        #expect(try #require(previewSection(in: stored)).contains("The stored text."))
        #expect(!stored.contains("A *new* text."))
    }

    @Test func theFormOffersPreviewBesideSave() throws {
        let app = try TestApp(server: false)
        let page = try app.editor().get("/editor/articles/new").text
        #expect(
            page.contains(
                "<button type=\"submit\" name=\"action\" value=\"preview\" class=\"secondary\" formnovalidate>Preview</button>"
            ))
        let save = try #require(page.range(of: "value=\"save\""))
        let preview = try #require(page.range(of: "value=\"preview\""))
        #expect(save.lowerBound < preview.lowerBound, "Save stays the form's first button (Enter saves, as before)")
    }

    /// A Preview pressed after the session expired is captured like any POST of the form; after
    /// login it shows the preview again, and nothing is saved.
    @Test func aPreviewResumedAfterLoginIsNeverASave() throws {
        let clock = TestClock()
        let app = try TestApp(server: false) { $0.clock = clock.clock }
        let editor = try app.editor("late")
        let id = try editor.newArticle(ArticleForm(title: "Kept as it was", body: "Before."))
        let token = try #require(hiddenField("csrf_token", in: try editor.get("/editor/articles/\(id)").text))
        clock.advance(14 * 86_400 + 3_600)
        let form = ArticleForm(title: "Kept as it was", body: "After, only previewed.", action: "preview")
        let captured = try editor.post(
            "/editor/articles/\(id)", form: [("csrf_token", token)] + form.fields, headers: Self.sameOrigin)
        #expect(captured.status == 303)
        #expect(captured["Location"] == "/login")
        #expect(try editor.get("/login").text.contains("Log in to preview your changes to an article."))
        let resumed = try editor.follow(try editor.login("late"))
        #expect(resumed.status == 200)
        #expect(try #require(previewFirst(in: resumed.text)).contains("After, only previewed."))
        let stored = try editor.get("/editor/articles/\(id)").text
        #expect(try #require(previewSection(in: stored)).contains("Before."))
        #expect(!stored.contains("After, only previewed."))
    }
}
