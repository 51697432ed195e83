import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// SPEC "Discovery": the JSON answers the page's script asks for, and the script itself (issue #20).
@Suite struct ScriptJSONTests {
    // MARK: JSON for the page's script

    private func json(_ response: TestResponse) throws -> [String: Any] {
        #expect(response["Content-Type"]?.hasPrefix("application/json") == true, "\(response["Content-Type"] ?? "")")
        return try #require(
            try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any],
            "not a JSON object: \(response.text.prefix(200))")
    }

    private static let acceptJSON = [("Accept", "application/json")]

    private func post(
        _ client: any HTTPTestClient, _ path: String, on slug: String, _ fields: [(String, String)] = [],
        headers: [(String, String)] = acceptJSON
    ) throws -> TestResponse {
        let token = try client.formToken(on: "/articles/\(slug)")
        return try client.post(path, form: [("csrf_token", token)] + fields, headers: headers)
    }

    @Test func aLikeAskedForAsJSONAnswersWithTheStateAndCount() throws {
        let app = try TestApp(server: false, demo: false)
        let slug = try #require(try app.publish([SearchableArticle(title: "Likeable", body: "x")])["Likeable"])
        let first = try app.reader("first-fan")
        let second = try app.reader("second-fan")

        let liked = try post(first, "/articles/\(slug)/like", on: slug)
        #expect(liked.status == 200)
        var state = try json(liked)
        #expect(state["liked"] as? Bool == true && state["count"] as? Int == 1, "\(state)")
        #expect(Set(state.keys) == ["liked", "count"])
        state = try json(try post(first, "/articles/\(slug)/like", on: slug))
        #expect(state["liked"] as? Bool == true && state["count"] as? Int == 1, "liking twice counts once: \(state)")
        state = try json(try post(second, "/articles/\(slug)/like", on: slug))
        #expect(state["liked"] as? Bool == true && state["count"] as? Int == 2, "\(state)")
        let unliked = try post(first, "/articles/\(slug)/unlike", on: slug)
        #expect(unliked.status == 200)
        state = try json(unliked)
        #expect(state["liked"] as? Bool == false && state["count"] as? Int == 1, "\(state)")
        state = try json(try post(first, "/articles/\(slug)/unlike", on: slug))
        #expect(state["liked"] as? Bool == false && state["count"] as? Int == 1, "\(state)")

        // The page agrees, and no flash is left over for a redirect that never happened.
        let page = try first.get("/articles/\(slug)").text
        #expect(page.contains("data-like-count=\"1\""))
        #expect(page.contains("action=\"/articles/\(slug)/like\""))
        #expect(flashText(in: page) == nil, "\(flashText(in: page) ?? "")")

        // A browser's own navigation (HTML first) still gets the 303.
        for accept in [
            "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", "text/html, application/json",
        ] {
            let response = try post(first, "/articles/\(slug)/like", on: slug, headers: [("Accept", accept)])
            #expect(response.status == 303, "Accept: \(accept)")
            #expect(response["Location"] == "/articles/\(slug)#like")
        }
        let preferring = try post(
            second, "/articles/\(slug)/unlike", on: slug, headers: [("Accept", "application/json, text/html;q=0.9")])
        #expect(preferring.status == 200)
        #expect(try json(preferring)["liked"] as? Bool == false)

        // An unknown article: 404, said in JSON.
        let missing = try post(first, "/articles/no-such-article/like", on: slug)
        #expect(missing.status == 404)
        #expect((try json(missing)["error"] as? String)?.isEmpty == false)
    }

    @Test func aCommentAskedForAsJSONAnswersWithItsIdAndHTML() throws {
        let app = try TestApp(server: false, demo: false)
        let slug = try #require(try app.publish([SearchableArticle(title: "Talk", body: "x")])["Talk"])
        let reader = try app.reader("talker")
        let posted = try post(reader, "/articles/\(slug)/comments", on: slug, [("body", "Hello <world> & \"you\"")])
        #expect(posted.status == 200)
        let answer = try json(posted)
        let id = try #require(answer["id"] as? Int, "\(answer)")
        let html = try #require(answer["html"] as? String)
        #expect(answer["parent"] == nil || answer["parent"] is NSNull, "a top-level comment has no parent")
        #expect(html.hasPrefix("<li"), "\(html.prefix(80))")
        #expect(html.contains("id=\"comment-\(id)\""))
        #expect(html.contains("Hello &lt;world&gt; &amp; &quot;you&quot;"), "\(html)")
        #expect(html.contains(">talker</a>"))
        #expect(html.contains("action=\"/comments/\(id)/delete\""), "the author's delete form")
        #expect(!html.contains("<world>"))
        let page = try reader.get("/articles/\(slug)").text
        #expect(page.contains("id=\"comment-\(id)\""))
        #expect(flashText(in: page) == nil)

        let reply = try post(
            reader, "/articles/\(slug)/comments", on: slug, [("body", "A reply."), ("parent", String(id))])
        #expect(reply.status == 200)
        let replied = try json(reply)
        let replyID = try #require(replied["id"] as? Int)
        #expect(replied["parent"] as? Int == id, "\(replied)")
        let replyHTML = try #require(replied["html"] as? String)
        #expect(replyHTML.hasPrefix("<li") && replyHTML.contains("id=\"comment-\(replyID)\""))
        #expect(replyHTML.contains("data-parent=\"\(id)\""))
    }

    @Test func aRefusedCommentAskedForAsJSONIs422WithTheError() throws {
        let app = try TestApp(server: false, demo: false)
        let slug = try #require(try app.publish([SearchableArticle(title: "Quiet", body: "x")])["Quiet"])
        let reader = try app.reader("mute")
        let empty = try post(reader, "/articles/\(slug)/comments", on: slug, [("body", "  \r\n ")])
        #expect(empty.status == 422)
        let emptyError = try #require(try json(empty)["error"] as? String)
        #expect(emptyError.contains("empty"), "\(emptyError)")
        let long = try post(
            reader, "/articles/\(slug)/comments", on: slug, [("body", String(repeating: "é", count: 2001))])
        #expect(long.status == 422)
        #expect((try json(long)["error"] as? String)?.contains("2000") == true)
        let badParent = try post(
            reader, "/articles/\(slug)/comments", on: slug, [("body", "Orphan."), ("parent", "999999")])
        #expect((400..<500).contains(badParent.status))
        #expect((try json(badParent)["error"] as? String)?.isEmpty == false)
        #expect(!(try reader.get("/articles/\(slug)").text.contains("class=\"comment-list\"")), "nothing was posted")
    }

    /// An anonymous click asking for JSON is still captured: 303 to /login, performed after login.
    @Test func anAnonymousLikeAskingForJSONStillTakesTheFormPath() throws {
        let app = try TestApp(server: false, demo: false)
        let slug = try #require(try app.publish([SearchableArticle(title: "Later", body: "x")])["Later"])
        _ = try app.client().register("returning")
        let anonymous = app.client()
        let response = try post(anonymous, "/articles/\(slug)/like", on: slug)
        #expect(response.status == 303)
        #expect(response["Location"] == "/login")
        #expect(anonymous.cookies["herald_intent"] != nil, "the intent is captured")
        #expect(try anonymous.get("/login").text.contains("Log in to like “Later”"))
        let loggedIn = try anonymous.login("returning")
        #expect(loggedIn.status == 303)
        #expect(loggedIn["Location"] == "/articles/\(slug)#like")
        let page = try anonymous.get("/articles/\(slug)").text
        #expect(page.contains("data-like-count=\"1\""))
        #expect(page.contains("action=\"/articles/\(slug)/unlike\""))

        let commenter = app.client()
        let comment = try post(commenter, "/articles/\(slug)/comments", on: slug, [("body", "Kept for later.")])
        #expect(comment.status == 303)
        #expect(comment["Location"] == "/login")
    }

    /// The page's one script comes from /static/ (no inline script), and the CSP allows it.
    @Test func theScriptComesFromStaticAndTheCSPAllowsIt() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = try app.reader("scripted")
        for path in ["/", "/articles/\(slug)", "/search?q=the"] {
            let response = try reader.get(path)
            let scripts = captureGroups(#"(?s)<script([^>]*)>(.*?)</script>"#, in: response.text)
            #expect(!scripts.isEmpty, "\(path)")
            for script in scripts {
                #expect(script[0].contains("src=\"/static/"), "\(path): \(script[0])")
                #expect(script[1].trimmingCharacters(in: .whitespacesAndNewlines).isEmpty, "\(path): inline script")
            }
            let policy = response["Content-Security-Policy"] ?? ""
            #expect(policy.contains("default-src 'self'") || policy.contains("script-src 'self'"), "\(policy)")
            #expect(!policy.contains("unsafe-inline"))
        }
        let script = try reader.get("/static/js/herald.js")
        #expect(script.status == 200)
        #expect(script["Content-Type"]?.contains("javascript") == true, "\(script["Content-Type"] ?? "")")
    }
}
