import Foundation
import TestSupport

@testable import Herald

// Helpers for the conversation suite (SPEC "Conversations", issue #19): comment and reply forms
// submitted as the pages render them, and comment elements read from their HTML hooks.

/// A form as a page renders it: where it posts and its hidden fields (CSRF token, `parent`).
struct RenderedForm {
    let action: String
    let hidden: [(String, String)]

    func value(_ name: String) -> String? { hidden.first { $0.0 == name }?.1 }
}

extension HTTPTestClient {
    /// Posts `body` to the article's comment route with the token the article page carries;
    /// `parent` adds that field (a reply, or a bad parent on purpose).
    func postComment(_ slug: String, _ body: String, parent: String? = nil) throws -> TestResponse {
        let token = try formToken(on: "/articles/\(slug)")
        var form = [("csrf_token", token), ("body", body)]
        if let parent { form.append(("parent", parent)) }
        return try post("/articles/\(slug)/comments", form: form)
    }

    /// Opens the article (its page of comments `commentsPage`) and submits the reply form that
    /// sits under comment `id`, exactly as rendered, with `body` typed into it.
    func reply(to id: Int, on slug: String, _ body: String, commentsPage: Int = 1) throws -> TestResponse {
        let path = commentsPage == 1 ? "/articles/\(slug)" : "/articles/\(slug)?comments=\(commentsPage)"
        let page = try get(path)
        guard let form = replyForm(of: id, in: page.text) else {
            throw TestClientError("no reply form under comment \(id) on \(path) (status \(page.status))")
        }
        return try post(form.action, form: form.hidden + [("body", body)])
    }

    /// Follows a 303 as a browser does: GET its Location without the `#fragment`, which a browser
    /// keeps to itself (it is never sent in a request).
    func land(_ response: TestResponse) throws -> TestResponse {
        guard (300..<400).contains(response.status), let location = response["Location"] else {
            throw TestClientError("not a redirect: \(response.status) \(response.text.prefix(300))")
        }
        return try get(String(location.prefix { $0 != "#" }))
    }

    /// Submits the edit form of comment `id` with `body`: the token from the edit page when it
    /// opens (the author, logged in), else from the login page (a browser whose session is gone).
    func editComment(_ id: Int, _ body: String) throws -> TestResponse {
        let edit = try get("/comments/\(id)/edit")
        let token = try hiddenField("csrf_token", in: edit.text) ?? formToken(on: "/login")
        return try post("/comments/\(id)/edit", form: [("csrf_token", token), ("body", body)])
    }
}

/// The id at the end of a `…#comment-{id}` Location.
func commentID(in location: String?) -> Int? {
    location.flatMap { firstMatch(#"#comment-(\d+)$"#, in: $0) }.flatMap { Int($0) }
}

/// The whole element (`<li …>` to its matching `</li>`) of comment `id`, replies included.
func commentElement(_ id: Int, in html: String) -> String? {
    guard let anchor = html.range(of: "id=\"comment-\(id)\""),
        let start = html.range(of: "<li", options: .backwards, range: html.startIndex..<anchor.lowerBound)
    else { return nil }
    var depth = 0
    var index = start.lowerBound
    while let close = html.range(of: "</li>", range: index..<html.endIndex) {
        if let open = html.range(of: "<li", range: index..<close.lowerBound) {
            depth += 1
            index = open.upperBound
        } else {
            depth -= 1
            index = close.upperBound
            if depth == 0 { return String(html[start.lowerBound..<close.upperBound]) }
        }
    }
    return nil
}

/// The start tag of comment `id`'s element.
func commentTag(_ id: Int, in html: String) -> String? {
    guard let element = commentElement(id, in: html), let end = element.firstIndex(of: ">") else { return nil }
    return String(element[...end])
}

/// An attribute of comment `id`'s element: `data-parent`, `data-depth`; "" for one without a
/// value (`data-deleted`); nil when absent.
func commentAttribute(_ name: String, of id: Int, in html: String) -> String? {
    guard let tag = commentTag(id, in: html) else { return nil }
    if let value = firstMatch(" \(name)=\"([^\"]*)\"", in: tag) { return value }
    return tag.contains(" \(name)>") || tag.contains(" \(name) ") ? "" : nil
}

/// The ids of the top-level comments (`data-depth="1"`) of a page, in page order.
func topLevelCommentIDs(in html: String) -> [Int] {
    matches(of: #"id="comment-(\d+)" data-depth="1""#, in: html).compactMap { Int($0) }
}

/// The reply form of comment `id` itself (not one of its replies'): the form inside the first
/// `<details class="reply">` of its element, which must carry `parent` = `id`.
func replyForm(of id: Int, in html: String) -> RenderedForm? {
    guard let element = commentElement(id, in: html),
        let details = element.range(of: "<details class=\"reply\">"),
        let end = element.range(of: "</details>", range: details.upperBound..<element.endIndex)
    else { return nil }
    let form = renderedForm(in: String(element[details.lowerBound..<end.upperBound]))
    return form?.value("parent") == String(id) ? form : nil
}

/// The article's main comment form (`id="comment-form"`).
func mainCommentForm(in html: String) -> (form: RenderedForm, html: String)? {
    guard let start = html.range(of: "id=\"comment-form\""),
        let open = html.range(of: "<form", options: .backwards, range: html.startIndex..<start.lowerBound),
        let end = html.range(of: "</form>", range: start.upperBound..<html.endIndex)
    else { return nil }
    let text = String(html[open.lowerBound..<end.upperBound])
    return renderedForm(in: text).map { ($0, text) }
}

/// The first `<form method="post">` in `html`, with its hidden inputs.
func renderedForm(in html: String) -> RenderedForm? {
    guard let action = firstMatch(#"<form method="post" action="([^"]+)""#, in: html) else { return nil }
    let hidden = allGroups(of: #"<input type="hidden" name="([^"]+)" value="([^"]*)">"#, in: html).compactMap {
        $0.count == 2 ? ($0[0], $0[1]) : nil
    }
    return RenderedForm(action: action, hidden: hidden)
}

/// The text of the first `<textarea name="body">` in `html`, as rendered (HTML-escaped).
func bodyTextarea(in html: String) -> String? {
    guard let start = html.range(of: #"<textarea[^>]*name="body"[^>]*>"#, options: .regularExpression),
        let end = html.range(of: "</textarea>", range: start.upperBound..<html.endIndex)
    else { return nil }
    return String(html[start.upperBound..<end.lowerBound])
}

/// Every match of `pattern`, as its capture groups.
func allGroups(of pattern: String, in text: String) -> [[String]] {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
        (1..<match.numberOfRanges).map { index in
            Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
        }
    }
}

extension TestApp {
    /// `count` top-level comments by `username` on the article, written straight into the store
    /// (setup for the pages of comments; what is tested goes through HTTP). Their ids, oldest first.
    func addTopLevelComments(_ count: Int, on slug: String, by username: String) throws -> [Int] {
        guard let user = try AccountStore(database: app.database).credentials(username: username)?.user,
            let article = try app.articles.article(slug: slug)
        else { throw TestClientError("no reader \(username) or no article \(slug)") }
        let store = CommentStore(database: app.database)
        let now = configuration.clock.now()
        return try (1...count).map { index in
            try store.add(articleID: article.id, userID: user.id, body: "Conversation number \(index).", at: now)
        }
    }

    /// The comment count the front page shows for the article (`data-comment-count`), or nil.
    func frontPageCommentCount(of slug: String) throws -> Int? {
        let page = try client().get("/").text
        guard let item = page.range(of: "href=\"/articles/\(slug)\"") else { return nil }
        return firstMatch(#"data-comment-count="(\d+)""#, in: String(page[item.upperBound...])).flatMap { Int($0) }
    }
}

extension HTTPTestClient {
    /// Hides comment `id` as a moderator does, with the form on its article page.
    func hideComment(_ id: Int, on slug: String) throws -> TestResponse {
        let page = try get("/articles/\(slug)").text
        guard let element = commentElement(id, in: page),
            let token = hiddenField("csrf_token", in: element)
        else { throw TestClientError("no comment \(id) on \(slug)") }
        return try post("/comments/\(id)/hide", form: [("csrf_token", token), ("note", "off topic")])
    }

    /// Deletes comment `id` as its author does.
    func deleteComment(_ id: Int) throws -> TestResponse {
        try post("/comments/\(id)/delete", form: [("csrf_token", try formToken(on: "/"))])
    }
}
