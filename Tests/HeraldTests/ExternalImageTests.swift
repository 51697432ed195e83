import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// Issue #32, item 3: a picture from another site is refused when the article is saved, with a
/// message saying why and what to do — instead of passing, then showing readers a broken image
/// (the pages' CSP loads images from this site only).
@Suite struct ExternalImageTests {
    @Test func aPictureFromAnotherSiteIsRefusedAtSave() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor()
        let before = try editor.deskRows()
        let body = "Storm damage:\n\n![the pier](https://example.com/pier.jpg)\n"
        let refused = try editor.createArticle(ArticleForm(title: "Pier", body: body, action: "publish"))
        #expect(refused.status == 422)
        #expect(hasFieldError("body", in: refused.text))
        #expect(refused.text.contains(escapeHTML("The picture “https://example.com/pier.jpg” is on another site")))
        #expect(refused.text.contains(escapeHTML("[a description](https://example.com/pier.jpg)")))
        #expect(refused.text.contains(">\(escapeHTML(body))</textarea>"), "the text is kept")
        #expect(try editor.deskRows() == before)
        // A picture this site serves, and a link to one elsewhere, are fine.
        #expect(
            try editor.createArticle(
                ArticleForm(title: "Pier", body: "![the pier](/media/abc.png) [elsewhere](https://example.com/p.jpg)")
            ).status == 303)
    }

    @Test func whichTargetsAreElsewhere() {
        #expect(Markdown.isElsewhere("https://example.com/a.png"))
        #expect(Markdown.isElsewhere("HTTP://example.com/a.png"))
        #expect(Markdown.isElsewhere("//example.com/a.png"))
        #expect(!Markdown.isElsewhere("/media/abc.png"))
        #expect(!Markdown.isElsewhere("pictures/a.png"))
        #expect(!Markdown.isElsewhere("/a:b.png"))
        #expect(!Markdown.isElsewhere("data:image/png;base64,AAAA"))
        #expect(
            Markdown.externalImages("![a](https://x.example/1.png) ![b](/media/2.png) [c](https://x.example/)") == [
                "https://x.example/1.png"
            ])
    }
}
