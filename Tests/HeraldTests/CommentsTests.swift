import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

@Suite struct CommentsTests {
    private func postComment(_ client: any HTTPTestClient, _ slug: String, _ body: String) throws -> TestResponse {
        let token = try client.formToken(on: "/articles/\(slug)")
        return try client.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", body)])
    }

    private func fixture(_ name: String) throws -> String {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "Comments/\(name)")
        return try String(contentsOf: path, encoding: .utf8)
    }

    @Test func loggedInCommentLandsOnItsAnchor() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        _ = try reader.register("commenter")
        let response = try postComment(reader, slug, "  First line\r\nsecond line\r\n\r\nA new paragraph.  ")
        #expect(response.status == 303)
        let location = try #require(response["Location"])
        let id = try #require(Int(firstMatch(#"#comment-(\d+)$"#, in: location) ?? ""))
        #expect(location == "/articles/\(slug)#comment-\(id)")
        let page = try reader.get("/articles/\(slug)").text
        #expect(page.contains("id=\"comment-\(id)\""))
        #expect(page.contains("<a class=\"author\" href=\"/users/commenter\">commenter</a>"))
        #expect(page.contains("<p>First line\nsecond line</p>"))
        #expect(page.contains("<p>A new paragraph.</p>"))
        #expect(page.contains("action=\"/comments/\(id)/delete\""))
        #expect(page.contains("role=\"status\">Your comment on"))
        #expect(try reader.get("/").text.contains("data-comment-count=\"1\""))
    }

    @Test func commentsAreListedOldestFirstAndEscaped() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        _ = try reader.register("escaper")
        _ = try postComment(reader, slug, "first <script>alert('x')</script> & more")
        _ = try postComment(reader, slug, "second")
        let page = try reader.get("/articles/\(slug)").text
        #expect(!page.contains("<script>alert"))
        #expect(page.contains("first &lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; more"))
        let first = try #require(page.range(of: "first &lt;script"))
        let second = try #require(page.range(of: "<p>second</p>"))
        #expect(first.lowerBound < second.lowerBound)
    }

    @Test func emptyOrTooLongIs422WithTheTextKept() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        _ = try reader.register("verbose")
        let empty = try postComment(reader, slug, " \r\n\t ")
        #expect(empty.status == 422)
        #expect(empty.text.contains("Your comment is empty"))
        let long = String(repeating: "é", count: 2001)
        let tooLong = try postComment(reader, slug, long)
        #expect(tooLong.status == 422)
        #expect(tooLong.text.contains("the limit is 2000"))
        #expect(tooLong.text.contains(">\(long)</textarea>"))
        // Exactly 2,000 code points (with a CRLF and padding that do not count) is fine.
        #expect(try postComment(reader, slug, "  " + String(repeating: "é", count: 1998) + "\r\n!  ").status == 303)
    }

    @Test func anonymousCommentThenRegisterIsPostedOnce() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        let text = "Posted while logged out, and kept through the whole registration form."
        let captured = try postComment(reader, slug, text)
        #expect(captured.status == 303)
        #expect(captured["Location"] == "/login")
        let login = try reader.get("/login").text
        #expect(login.contains("Log in to post your comment on “"))
        #expect(login.contains("“Posted while logged out, and kept through the whole…”"))
        #expect(try reader.get("/register").text.contains("Create an account to post your comment"))
        let registered = try reader.register("latecomer")
        let location = try #require(registered["Location"])
        #expect(location.hasPrefix("/articles/\(slug)#comment-"))
        let page = try reader.get("/articles/\(slug)").text
        #expect(occurrences(of: text, in: page) == 1)
        #expect(page.contains("role=\"status\">Your comment on"))
    }

    @Test func anonymousCommentWrongPasswordThenRightPostsOnce() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.client().register("typo")
        let reader = app.client()
        _ = try postComment(reader, slug, "Survives a wrong password.")
        #expect(try reader.login("typo", "wrong-password").status == 422)
        #expect(try reader.login("typo")["Location"]?.hasPrefix("/articles/\(slug)#comment-") == true)
        let page = try reader.get("/articles/\(slug)").text
        #expect(occurrences(of: "Survives a wrong password.", in: page) == 1)
    }

    @Test func aTooLongAnonymousCommentIsAnsweredBeforeLoginWithItsTextAndAWorkingForm() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        let long = String(repeating: "word ", count: 420)  // 2,099 code points: too long, though it would fit
        let refused = try postComment(reader, slug, long)
        #expect(refused.status == 422)
        #expect(refused.text.contains("the limit is 2000"))
        #expect(refused.text.contains(long.trimmingCharacters(in: .whitespaces)))
        #expect(reader.cookies["herald_intent"] == nil, "nothing is kept that could never be posted")
        // The form as rendered still works: shortened, it is captured and posted after login.
        let token = try #require(hiddenField("csrf_token", in: refused.text))
        let fixed = try reader.post(
            "/articles/\(slug)/comments", form: [("csrf_token", token), ("body", "Shorter now.")])
        #expect(fixed["Location"] == "/login")
        _ = try reader.register("wordy")
        #expect(try reader.get("/articles/\(slug)").text.contains("<p>Shorter now.</p>"))
    }

    @Test func replayedCommentIntentPostsNothing() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.client().register("once")
        let reader = app.client()
        _ = try postComment(reader, slug, "Only once, please.")
        let copied = try #require(reader.cookies["herald_intent"])
        _ = try reader.login("once")
        let replayer = app.client()
        replayer.setCookie("herald_intent", copied)
        #expect(try replayer.login("once")["Location"] == "/")
        #expect(occurrences(of: "Only once, please.", in: try reader.get("/articles/\(slug)").text) == 1)
    }

    @Test func cancelDiscardsThePendingComment() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.client().register("changed-mind")
        let reader = app.client()
        _ = try postComment(reader, slug, "Never mind.")
        #expect(
            try reader.post("/intent/cancel", form: [("csrf_token", try reader.formToken(on: "/login"))])["Location"]
                == "/articles/\(slug)")
        _ = try reader.login("changed-mind")
        #expect(!(try reader.get("/articles/\(slug)").text.contains("Never mind.")))
    }

    @Test(arguments: ["chinese.txt", "chinese-emoji.txt", "russian.txt", "arabic.txt", "hindi.txt", "english.txt"])
    func longestCommentInAnyScriptSurvivesLogin(file: String) throws {
        let text = try fixture(file)
        #expect(CommentText.length(CommentText.normalized(text)) == 2000)
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.client().register("polyglot")
        let reader = app.client()
        let captured = try postComment(reader, slug, text)
        #expect(captured.status == 303, "\(file) did not fit the cookie")
        let cookie = try #require(captured.headers.values(for: "Set-Cookie").first { $0.hasPrefix("herald_intent=") })
        let nameAndValue = cookie.split(separator: ";").first.map(String.init) ?? ""
        #expect(nameAndValue.utf8.count <= 4096)
        _ = try reader.login("polyglot")
        let page = try reader.get("/articles/\(slug)").text
        let firstParagraph = String(text.components(separatedBy: "\n\n")[0])
        #expect(page.contains(escapeHTML(firstParagraph)))
    }

    /// SPEC "Resumable everywhere": a comment too large for the cookie is parked server-side and
    /// posted after login, whole.
    @Test func textThatCannotFitTheCookieIsParkedAndPostedAfterLogin() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let noise = Self.incompressibleCJK(2000)
        let reader = app.client()
        let response = try postComment(reader, slug, noise)
        #expect(response.status == 303)
        #expect(response["Location"] == "/login")
        let cookie = try #require(reader.cookies["herald_intent"])
        #expect(cookie.utf8.count < 400, "the cookie names the parked form instead of carrying it")
        _ = try reader.register("noisy")
        #expect(try reader.get("/articles/\(slug)").text.contains(noise))
    }

    /// When parking is full, the text is shown again with a message, never dropped.
    @Test func textThatCanBeKeptNowhereIsShownAgainNotDropped() throws {
        let app = try TestApp(server: false) { $0.parkingLimits.anonymousBytes = 1000 }
        let slug = try app.firstSlug()
        let noise = Self.incompressibleCJK(2000)
        let reader = app.client()
        let response = try postComment(reader, slug, noise)
        #expect(response.status == 422)
        #expect(response.text.contains("please log in first") || response.text.contains("Please log in first"))
        #expect(response.text.contains(noise))
        #expect(reader.cookies["herald_intent"] == nil)
    }

    /// Random CJK code points barely compress: 2,000 of them are too large for the cookie.
    private static func incompressibleCJK(_ count: Int) -> String {
        var generator = SystemRandomNumberGenerator()
        return String(
            String.UnicodeScalarView(
                (0..<count).compactMap { _ in Unicode.Scalar(UInt32.random(in: 0x4E00...0x9FFF, using: &generator)) }))
    }

    @Test func deleteByAuthorOnly() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = app.client()
        _ = try author.register("author")
        let location = try #require(try postComment(author, slug, "Mine to delete.")["Location"])
        let id = try #require(firstMatch(#"#comment-(\d+)$"#, in: location))
        let other = app.client()
        _ = try other.register("other")
        let otherPage = try other.get("/articles/\(slug)").text
        #expect(!otherPage.contains("action=\"/comments/\(id)/delete\""))
        #expect(
            try other.post(
                "/comments/\(id)/delete", form: [("csrf_token", hiddenField("csrf_token", in: otherPage) ?? "")]
            ).status == 403)
        #expect(
            try author.post("/comments/999999/delete", form: [("csrf_token", try author.formToken(on: "/"))]).status
                == 404)
        let deleted = try author.post("/comments/\(id)/delete", form: [("csrf_token", try author.formToken(on: "/"))])
        #expect(deleted.status == 303)
        #expect(deleted["Location"] == "/articles/\(slug)")
        #expect(!(try author.get("/articles/\(slug)").text.contains("Mine to delete.")))
        #expect(try author.get("/").text.contains("data-comment-count=\"0\""))
    }

    @Test func anAnonymousDeleteIsCapturedAndPerformedOnlyForTheAuthor() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = app.client()
        _ = try author.register("writer")
        let location = try #require(try postComment(author, slug, "Delete me later.")["Location"])
        let id = try #require(firstMatch(#"#comment-(\d+)$"#, in: location))
        _ = try app.client().register("stranger")

        // Someone else logs in with the pending deletion: refused, and the comment stays.
        let stranger = app.client()
        let captured = try stranger.post(
            "/comments/\(id)/delete", form: [("csrf_token", try stranger.formToken(on: "/login"))])
        #expect(captured.status == 303)
        #expect(captured["Location"] == "/login")
        #expect(try stranger.get("/login").text.contains("Log in to delete your comment"))
        let refused = try stranger.login("stranger")
        #expect(refused.status == 403)
        #expect(refused.text.contains("Only the author of a comment can delete it."))
        #expect(try stranger.get("/account").status == 200, "the login itself stands")
        #expect(try app.client().get("/articles/\(slug)").text.contains("Delete me later."))

        // Its author, whose session had expired: deleted after login.
        let returning = app.client()
        _ = try returning.post("/comments/\(id)/delete", form: [("csrf_token", try returning.formToken(on: "/login"))])
        #expect(try returning.login("writer")["Location"] == "/articles/\(slug)")
        #expect(!(try app.client().get("/articles/\(slug)").text.contains("Delete me later.")))
        // An unknown comment is 404 and nothing is kept.
        let lost = app.client()
        #expect(
            try lost.post("/comments/999999/delete", form: [("csrf_token", try lost.formToken(on: "/login"))]).status
                == 404)
        #expect(lost.cookies["herald_intent"] == nil)
    }

    @Test func postingIsRateLimited() throws {
        let app = try TestApp(server: false) { $0.commentsPerMinute = 3 }
        let slug = try app.firstSlug()
        let reader = app.client()
        _ = try reader.register("chatty")
        for index in 0..<3 { #expect(try postComment(reader, slug, "comment \(index)").status == 303) }
        let limited = try postComment(reader, slug, "one too many")
        #expect(limited.status == 429)
        #expect(limited["Retry-After"] != nil)
        #expect(limited.text.contains("comments a minute"))
    }
}
