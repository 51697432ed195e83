import Foundation
import HTTP
import TestSupport
import Testing

@testable import Herald

/// Issue #32, items 1 and 4: the header folds into a menu that needs no script, its unread count
/// is a number, moderators and editors find their desks from every page, and what cannot be
/// undone looks it. (What a browser decides — sizes, contrast — is in Tests/browser.)
@Suite struct HeaderAndFormsTests {
    @Test func theHeaderFoldsIntoAMenuThatNeedsNoScript() throws {
        let app = try TestApp(server: false)
        let page = try app.client().get("/").text
        let header = try #require(firstMatch(#"(<header class="masthead">[\s\S]*?</header>)"#, in: page))
        // The button: a <details> holding only its summary, which names the menu it opens.
        #expect(
            header.contains(
                "<details class=\"menu\">\n      <summary class=\"menu-toggle\" aria-controls=\"site-menu\">Menu </summary>\n    </details>"
            ))
        let menu = try #require(firstMatch(#"(<div class="menu-body" id="site-menu">[\s\S]*</div>)"#, in: header))
        for part in ["<nav class=\"site-nav\"", "action=\"/search\"", "href=\"/login\"", "href=\"/register\""] {
            #expect(menu.contains(part), "\(part) is in the menu")
        }
        // Only the site's name and the button stay outside it.
        let outside = header.replacingOccurrences(of: menu, with: "")
        #expect(outside.contains("class=\"brand\""))
        #expect(!outside.contains("<nav") && !outside.contains("<form"))
        // The stylesheet opens it from the button, and only where it can (:has).
        let css = try String(contentsOfFile: TestApp.repositoryRoot + "/Public/css/herald.css", encoding: .utf8)
        #expect(css.contains(".masthead:has(.menu[open]) .menu-body { display: flex; }"))
        #expect(css.contains("@supports selector(:has(*))"))
    }

    @Test func theUnreadCountIsANumberOnTheMenuAndBesideReplies() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let asker = try app.reader("asker")
        let question = try asker.comment(on: slug, "Anyone?")
        _ = try app.reader("answerer").reply(to: question, on: slug, "Me.")
        for path in ["/", "/articles/\(slug)", "/account"] {
            let page = try asker.get(path).text
            let badge =
                "<span class=\"unread\" data-unread-count=\"1\">1<span class=\"visually-hidden\"> new reply</span></span>"
            #expect(
                page.contains("<summary class=\"menu-toggle\" aria-controls=\"site-menu\">Menu \(badge)</summary>"),
                "\(path)")
            #expect(page.contains("<a href=\"/me/replies\">Replies \(badge)</a>"), "\(path)")
        }
    }

    @Test func moderatorsAndEditorsFindTheirDesksInTheHeader() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let moderator = try app.moderator()
        let editor = try app.editor()
        let reader = try app.reader("plain")
        // The moderator's copy first: a shared copy must not carry their link to a reader.
        for path in ["/", "/articles/\(slug)"] {
            #expect(try moderator.get(path).text.contains("<li><a href=\"/moderation\">Moderation</a></li>"), "\(path)")
            let readers = try reader.get(path).text
            #expect(!readers.contains("href=\"/moderation\""), "\(path)")
            #expect(!readers.contains("href=\"/editor\""), "\(path)")
            let editors = try editor.get(path).text
            #expect(editors.contains("<li><a href=\"/editor\">Newsroom</a></li>"), "\(path)")
            #expect(!editors.contains("href=\"/moderation\""), "\(path)")
            #expect(!(try reader.get(path).text.contains("href=\"/editor\"")), "\(path), after the editor's copy")
            #expect(!(try app.client().get(path).text.contains("href=\"/moderation\"")), "\(path), anonymous")
        }
    }

    @Test func whatCannotBeUndoneLooksDangerous() throws {
        let app = try TestApp(server: false)
        let account = try app.reader("leaver").get("/account").text
        #expect(account.contains("<button type=\"submit\" class=\"danger\">Delete my account</button>"))
        #expect(account.contains("<button type=\"submit\">Change password</button>"))

        let slug = try app.firstSlug()
        let id = try app.reader("troll").comment(on: slug, "Bad words.")
        #expect(try app.reader("reporter").report(id, on: slug, reason: "spam").status == 303)
        let queue = try app.moderator().moderationPage()
        #expect(queue.contains("<button type=\"submit\" class=\"danger\">Ban troll</button>"))

        let editor = try app.editor()
        let articleID = try editor.newArticle(ArticleForm(title: "Going out", body: "Text.", action: "publish"))
        let edit = try editor.get("/editor/articles/\(articleID)").text
        // Unpublishing asks first: its button is inside a closed <details> of its own.
        let confirm = try #require(
            firstMatch(#"(?s)(<details class="confirm unpublish-confirm">.*?</details>)"#, in: edit))
        #expect(confirm.contains("<summary>Unpublish…</summary>"))
        #expect(confirm.contains("value=\"unpublish\" class=\"danger\">Unpublish</button>"))
        #expect(occurrences(of: "value=\"unpublish\"", in: edit) == 1)
    }

    @Test func everyKindOfFieldIsStyled() throws {
        let css = try String(
            contentsOfFile: TestApp.repositoryRoot + "/Public/css/herald.css", encoding: .utf8)
        let templates = try FileManager.default.contentsOfDirectory(atPath: TestApp.repositoryRoot + "/Templates")
        var types = Set<String>()
        for name in templates where name.hasSuffix(".mustache") {
            let text = try String(contentsOfFile: TestApp.repositoryRoot + "/Templates/" + name, encoding: .utf8)
            types.formUnion(matches(of: #"<input type="([a-z-]+)""#, in: text))
        }
        #expect(types.isSuperset(of: ["email", "datetime-local", "file", "password", "text", "search"]))
        for type in types.subtracting(["hidden", "checkbox", "radio"]) {
            #expect(css.contains("input[type=\"\(type)\"]"), "input type \(type) has no style")
        }
        #expect(css.contains("::file-selector-button"))
    }
}
