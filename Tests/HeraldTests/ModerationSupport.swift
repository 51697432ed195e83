import Foundation
import TestSupport

@testable import Herald

// Helpers for the moderation suite (SPEC, "Moderation"): comments posted and reported through
// the article page's forms, moderators' forms submitted with their hidden fields, and the
// moderation page read from its HTML hooks (`data-comment-id`, `data-report-count`,
// `data-reason`, `data-action`).

/// One comment in the queue: `<li class="reported-comment" data-comment-id data-report-count>`.
struct QueueItem: Equatable {
    let id: Int
    let count: Int
    let html: String

    /// Its reasons with their counts (`data-reason="R">R × N`), in page order.
    var reasons: [String: Int] {
        Dictionary(
            captureGroups(#"data-reason="([^"]+)">[^<]*× (\d+)<"#, in: html).map { ($0[0], Int($0[1]) ?? -1) },
            uniquingKeysWith: { first, _ in first })
    }
}

/// One row of the record: `<tr data-action="A"><td>when</td><td>who</td><td>what</td><td>on</td><td>note</td></tr>`.
struct ActionRow: Equatable {
    let action: String
    let who: String
    let what: String
    let on: String
    let note: String
}

func queueItems(in html: String) -> [QueueItem] {
    captureGroups(
        #"(?s)<li class="reported-comment" data-comment-id="(\d+)" data-report-count="(\d+)">(.*?)</li>"#, in: html
    ).map { QueueItem(id: Int($0[0]) ?? -1, count: Int($0[1]) ?? -1, html: $0[2]) }
}

func actionRows(in html: String) -> [ActionRow] {
    captureGroups(#"(?s)<tr data-action="([^"]*)">(.*?)</tr>"#, in: html).map { row in
        // Each cell as text: the target is a link (`<a href="/comments/5">comment 5</a>`).
        let cells = captureGroups(#"(?s)<td>(.*?)</td>"#, in: row[1]).map {
            $0[0].replacingOccurrences(of: #"<[^>]+>"#, with: "", options: .regularExpression)
        }
        func cell(_ index: Int) -> String { index < cells.count ? cells[index] : "?" }
        return ActionRow(action: row[0], who: cell(1), what: cell(2), on: cell(3), note: cell(4))
    }
}

/// The `data-comment-count` of `slug`'s item on a front page.
func frontCommentCount(_ slug: String, in html: String) -> Int? {
    let pattern =
        #"(?s)<h2 class="story-title"><a href="/articles/\#(NSRegularExpression.escapedPattern(for: slug))">.*?data-comment-count="(\d+)""#
    return firstMatch(pattern, in: html).flatMap { Int($0) }
}

/// The ids of the comments an article page shows with their text (not hidden, or shown to a moderator).
func commentIDs(in html: String) -> [Int] {
    matches(of: #"<li class="comment[^"]*" id="comment-(\d+)""#, in: html).compactMap { Int($0) }
}

extension HTTPTestClient {
    /// Posts `body` with the article page's comment form; throws unless it lands on the new comment.
    func comment(on slug: String, _ body: String) throws -> Int {
        let token = try formToken(on: "/articles/\(slug)")
        let response = try post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", body)])
        guard response.status == 303, let location = response["Location"],
            let id = firstMatch(#"#comment-(\d+)$"#, in: location).flatMap({ Int($0) })
        else { throw TestClientError("commenting on \(slug) gave \(response.status) \(response.text.prefix(200))") }
        return id
    }

    /// Submits the Report form of comment `id` as the article page renders it, with `reason`.
    func report(_ id: Int, on slug: String, reason: String) throws -> TestResponse {
        let page = try get("/articles/\(slug)").text
        guard let element = commentElement(id, in: page),
            let token = hiddenField("csrf_token", in: element),
            element.contains("action=\"/comments/\(id)/report\"")
        else { throw TestClientError("no report form on comment \(id) of \(slug)") }
        return try post("/comments/\(id)/report", form: [("csrf_token", token), ("reason", reason)])
    }

    /// A POST to `path` with the CSRF token of `page` and `fields` (for moderators' forms, and for
    /// what a form would not offer).
    func postForm(_ path: String, on page: String = "/", _ fields: [(String, String)] = []) throws -> TestResponse {
        try post(path, form: [("csrf_token", try formToken(on: page))] + fields)
    }

    /// The moderation page (or `?page=N`); throws unless it is 200.
    func moderationPage(_ page: Int? = nil) throws -> String {
        let response = try get(page.map { "/moderation?page=\($0)" } ?? "/moderation")
        guard response.status == 200 else { throw TestClientError("/moderation answered \(response.status)") }
        return response.text
    }
}

extension TestApp {
    /// A new browser logged in as `name`, who has been given the moderator role.
    func moderator(_ name: String = "moderator") throws -> any HTTPTestClient {
        let client = try reader(name)
        _ = try app.accounts.change(.moderator, of: name, granted: true)
        return client
    }

    /// A new browser logged in as `name`, an admin.
    func admin(_ name: String = "admin") throws -> any HTTPTestClient {
        let client = try reader(name)
        _ = try app.accounts.change(.admin, of: name, granted: true)
        return client
    }

    /// `[stored, rows]`: the stored comment count of `slug` and its number of visible comment rows
    /// (`CommentStore.countVisibleRows`), which must always be equal.
    func commentCounts(_ slug: String) throws -> [Int] {
        guard let article = try app.articles.article(slug: slug) else { throw TestClientError("no article \(slug)") }
        return [article.commentCount, try CommentStore(database: app.database).countVisibleRows(articleID: article.id)]
    }

    /// Comments whose stored count of open reports (`open_reports`, the queue's order) differs
    /// from their open report rows; must always be none.
    func openReportCountMismatches() throws -> Int {
        try app.database.withConnection { connection in
            try connection.query(
                """
                SELECT count(*) FROM comments WHERE open_reports <> (
                    SELECT count(*) FROM comment_reports r WHERE r.comment_id = comments.id AND r.is_open = 1)
                """, [])
        }.first?.int(0) ?? -1
    }

    /// The second-newest article's slug (for comments on more than one article).
    func secondSlug() throws -> String {
        guard let slug = try app.articles.page(1, size: 2).articles.dropFirst().first?.slug else {
            throw TestClientError("fewer than two articles")
        }
        return slug
    }
}
