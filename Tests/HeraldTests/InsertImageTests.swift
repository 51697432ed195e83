import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// Issue #32, item 3: "Insert image" in the editor. Without a script the whole form is posted to
/// `/editor/images`; the picture is stored in the media library (its type and size checks) and
/// `![description](/media/…)` goes into the text, which comes back with everything typed and
/// nothing saved. Asked for JSON (the script), the answer is the Markdown alone.
@Suite struct InsertImageTests {
    private static let typedBody = "First paragraph.\r\n\r\nSecond & <last>."

    /// The article form as a browser posts it with the Insert image button: every field typed,
    /// the lead image's empty part, and the picture for the text.
    private func insert(
        _ editor: any HTTPTestClient, on page: String = "/editor/articles/new", alt: String = "the pier",
        picture: [UInt8]? = PNGFile.rgb(width: 3, height: 2), cursor: Int? = nil, article: String? = nil,
        headers: [(String, String)] = []
    ) throws -> TestResponse {
        var body = ArticleForm(title: "Pier", summary: "Kept summary", body: Self.typedBody, action: nil)
            .multipart(csrfToken: try editor.formToken(on: page))
        if let article { body.field("article", article) }
        body.field("insert_alt", alt)
        body.field("insert_at", cursor.map(String.init) ?? "")
        body.file("insert_image", filename: "pier.png", contentType: "image/png", picture ?? [])
        return try editor.postMultipart("/editor/images", body, headers: headers)
    }

    private func textarea(_ html: String) -> String? {
        firstMatch(#"(?s)<textarea id="body" name="body"[^>]*>(.*?)</textarea>"#, in: html)
    }

    @Test func withoutAScriptTheImageGoesAtTheEndOfTheTextWithEverythingTypedKept() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        let before = try editor.deskRows()
        let response = try insert(editor)
        #expect(response.status == 200)
        let text = try #require(textarea(response.text))
        let name = try #require(firstMatch(#"\]\(/media/([0-9a-f]{64}\.png)\)"#, in: text))
        #expect(text == escapeHTML("First paragraph.\n\nSecond & <last>.\n\n![the pier](/media/\(name))"))
        #expect(response.text.contains("value=\"Pier\"") && response.text.contains(">Kept summary</textarea>"))
        #expect(flashText(in: response.text)?.contains("The image is in the text") == true)
        #expect(response.text.contains("action=\"/editor/articles\""), "the form still creates the article")
        #expect(try editor.deskRows() == before, "nothing is saved")
        let served = try app.client().get("/media/\(name)")
        #expect(served.status == 200)
        #expect(served.body == PNGFile.rgb(width: 3, height: 2))
    }

    @Test func theScriptsCursorPlacesItBetweenParagraphs() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        let text = try #require(textarea(try insert(editor, alt: "a [pier]", cursor: 16).text))
        #expect(text.hasPrefix("First paragraph.\n\n![a \\[pier\\]](/media/"))
        #expect(text.hasSuffix(")\n\nSecond &amp; &lt;last&gt;."))
        // A cursor out of the text puts it at the end.
        let end = try #require(textarea(try insert(editor, cursor: 9_999).text))
        #expect(end.hasPrefix("First paragraph.\n\nSecond &amp; &lt;last&gt;.\n\n![the pier](/media/"))
    }

    @Test func aFileThatIsNotAnImageOrNoDescriptionIsRefusedWithTheTextIntact() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        let media = { try app.app.database.withConnection { try $0.query("SELECT count(*) FROM media") }.first?.int(0) }
        let stored = try media()

        let notImage = try insert(editor, picture: Array("%PDF-1.7 not a picture".utf8))
        #expect(notImage.status == 422)
        #expect(notImage.text.contains("id=\"insert_image-error\""))
        #expect(textarea(notImage.text) == escapeHTML(Self.typedBody), "the text exactly as sent")
        #expect(notImage.text.contains("value=\"the pier\""), "the description typed is put back")

        let noAlt = try insert(editor, alt: " ")
        #expect(noAlt.status == 422)
        #expect(noAlt.text.contains("id=\"insert_alt-error\""))
        #expect(textarea(noAlt.text) == escapeHTML(Self.typedBody))

        let noFile = try insert(editor, picture: nil)
        #expect(noFile.status == 422)
        #expect(noFile.text.contains("Choose an image to insert"))
        #expect(try media() == stored, "nothing stored")
    }

    @Test func anArticleBeingEditedComesBackToItsOwnForm() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        let id = try editor.newArticle(ArticleForm(title: "Stored", body: "The stored text."))
        let page = "/editor/articles/\(id)"
        #expect(try editor.get(page).text.contains("<input type=\"hidden\" name=\"article\" value=\"\(id)\">"))
        let response = try insert(editor, on: page, article: id)
        #expect(response.status == 200)
        #expect(response.text.contains("action=\"/editor/articles/\(id)\""))
        #expect(try editor.get(page).text.contains(">The stored text.</textarea>"), "nothing saved")
        #expect(try insert(editor, on: page, article: "abc").status == 404)
    }

    @Test func askedForJSONItAnswersTheMarkdownAlone() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        let json = [("Accept", "application/json")]
        let response = try insert(editor, headers: json)
        #expect(response.status == 200)
        let answer = try #require(
            try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: String])
        #expect(answer["markdown"]?.hasPrefix("![the pier](/media/") == true)
        let refused = try insert(editor, picture: Array("GIF89a".utf8), headers: json)
        #expect(refused.status == 422)
        #expect(refused.text.contains("\"error\""))
    }

    @Test func readersCannotInsertImages() throws {
        let app = try TestApp(server: false)
        let reader = try app.reader("reader")
        var body = ArticleForm().multipart(csrfToken: try reader.formToken(on: "/account"))
        body.field("insert_alt", "x")
        body.file("insert_image", filename: "x.png", contentType: "image/png", PNGFile.rgb(width: 3, height: 2))
        #expect(try reader.postMultipart("/editor/images", body).status == 403)
    }

    @Test func anInsertMadeAfterTheSessionEndedIsDoneAfterLoginWithTheTextIntact() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor("photodesk")
        let token = try #require(hiddenField("csrf_token", in: try editor.get("/editor/articles/new").text))
        clock.advance(DraftParkingTests.expiry)
        var body = ArticleForm(title: "Pier", body: Self.typedBody, action: nil).multipart(csrfToken: token)
        body.field("insert_alt", "the pier")
        body.file("insert_image", filename: "pier.png", contentType: "image/png", PNGFile.rgb(width: 3, height: 2))
        let captured = try editor.postMultipart("/editor/images", body, headers: DraftParkingTests.sameOrigin)
        #expect(captured.status == 303)
        #expect(captured["Location"] == "/login")
        #expect(try editor.get("/login").text.contains("insert the image “the pier” into your article"))

        let resumed = try editor.login("photodesk")
        #expect(resumed.status == 200, "the form comes back at once, with the image in the text")
        let text = try #require(textarea(resumed.text))
        #expect(text.hasPrefix(escapeHTML("First paragraph.\n\nSecond & <last>.\n\n![the pier](/media/")))
        #expect(resumed.text.contains("value=\"Pier\""))
        #expect(try editor.deskRows().isEmpty, "nothing saved")
    }

    @Test func theEditorOffersInsertImageAfterSave() throws {
        let app = try TestApp(server: false)
        let page = try app.editor().get("/editor/articles/new").text
        let save = try #require(page.range(of: "value=\"save\""))
        let insert = try #require(page.range(of: "formaction=\"/editor/images\""))
        #expect(save.lowerBound < insert.lowerBound, "Enter still saves")
        #expect(page.contains("<input type=\"file\" id=\"insert_image\" name=\"insert_image\""))
        #expect(page.contains("<script src=\"/static/js/editor-images.js\" defer></script>"))
    }
}
