import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// Issue #32, item 3: the live preview the editor's script asks for (POST `/editor/preview`,
/// JSON): the server's Markdown renderer and Save's rule on pictures from other sites, nothing
/// rendered by the script; editors only; nothing stored.
@Suite struct LivePreviewTests {
    private static let json = [("Accept", "application/json"), ("Sec-Fetch-Site", "same-origin")]

    /// The script's request, with the form token of `page` (the editor page, for an editor).
    private func preview(_ client: any HTTPTestClient, _ body: String, on page: String = "/editor/articles/new")
        throws -> TestResponse
    {
        let token = try client.formToken(on: page)
        return try client.post("/editor/preview", form: [("csrf_token", token), ("body", body)], headers: Self.json)
    }

    private func object(_ response: TestResponse) throws -> [String: Any] {
        try #require(
            try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            "not a JSON object: \(response.text.prefix(200))")
    }

    @Test func itRendersMarkdownAsReadersWillSeeIt() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        let before = try editor.deskRows()
        let answer = try preview(editor, "## Start\n\nSome **bold** <script>words</script>.")
        #expect(answer.status == 200)
        #expect(answer["Content-Type"]?.hasPrefix("application/json") == true)
        let value = try object(answer)
        let html = try #require(value["html"] as? String)
        #expect(html.contains("<h2>Start</h2>"))
        #expect(html.contains("<strong>bold</strong> &lt;script&gt;words&lt;/script&gt;."))
        #expect(value["error"] == nil || value["error"] is NSNull)
        #expect(try editor.deskRows() == before, "nothing is stored")
    }

    @Test func anExternalImageIsRefusedWithSavesOwnWords() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        let body = "![the pier](https://example.com/pier.jpg)"
        let error = try #require(try object(try preview(editor, body))["error"] as? String)
        #expect(error.hasPrefix("The picture “https://example.com/pier.jpg” is on another site"))
        let saved = try editor.createArticle(ArticleForm(title: "Pier", body: body, action: "save"))
        #expect(saved.status == 422)
        #expect(saved.text.contains(escapeHTML(error)), "the same message as Save")
        #expect(error == Newsroom.externalImageProblem(body))
    }

    @Test func onlyEditorsGetIt() throws {
        let app = try TestApp(server: false)
        #expect(try preview(try app.reader("reader"), "text", on: "/account").status == 403)
        let anonymous = try preview(app.client(), "text", on: "/login")
        #expect(anonymous.status == 303)
        #expect(anonymous["Location"]?.hasPrefix("/login") == true)
        #expect(anonymous.headers.values(for: "Set-Cookie").allSatisfy { !$0.contains("herald_intent=") })
    }

    @Test func theEditorPageLoadsTheScriptAndNamesTheEndpoint() throws {
        let app = try TestApp(server: false)
        let page = try app.editor().get("/editor/articles/new").text
        #expect(page.contains("data-live-preview=\"/editor/preview\""))
        #expect(page.contains("<script src=\"/static/js/editor-preview.js\" defer></script>"))
        #expect(!page.contains("<script>"), "no inline script (the CSP allows none)")
    }
}
