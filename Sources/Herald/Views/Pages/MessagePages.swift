import HTTP
import Mustache

/// `error.mustache`: what went wrong in plain words, what to do, and a way on — for a page that
/// was not found, a search form and the latest articles (SPEC "Pages, in small ways").
struct ErrorPage: PageModel {
    let template = PageTemplate.error
    let error: HTTPError
    /// The newest articles, offered on a 404 page; empty elsewhere.
    var latest: [Article] = []
    /// The heading, in the reader's language.
    let heading: String

    init(error: HTTPError, latest: [Article] = [], messages: Messages) {
        self.error = error
        self.latest = latest
        heading = Self.heading(for: error.status, messages: messages)
    }

    /// The heading: words for people, not the reason phrase ("Forbidden", "Too Many Requests").
    static func heading(for status: HTTPStatus, messages: Messages) -> String {
        messages[headingKey(for: status)]
    }

    static func headingKey(for status: HTTPStatus) -> String {
        switch status.code {
        case 400: "error_400"
        case 403: "error_403"
        case 404: "error_404"
        case 405: "error_405"
        case 409: "error_409"
        case 413: "error_413"
        case 414, 431: "error_414"
        case 415: "error_415"
        case 429: "error_429"
        case 503: "error_503"
        case 500...: "error_500"
        default: "error_422"
        }
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "status": .int(error.status.code)
        case "heading": .string(heading)
        case "message": .string(error.message)
        case "is_not_found": .bool(error.status == .notFound)
        case "latest": .list(latest.map { .object(ArticleSummaryView(article: $0)) })
        case "has_latest": .bool(!latest.isEmpty)
        default: nil
        }
    }
}

/// `returned-text.mustache`: why something was not done, and what the reader typed, to copy.
struct ReturnedTextPage: PageModel {
    let template = PageTemplate.returnedText
    let message: String
    let texts: [(label: String, name: String, text: String)]

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "message": .string(message)
        case "texts":
            ReturnedTextPage.values(of: texts)
        default: nil
        }
    }
}

extension ReturnedTextPage {
    /// What a person typed, each non-empty field as a read-only textarea's values (its label, name,
    /// text and a height that fits it): shared by every page that shows typed text back.
    static func values(of texts: [(label: String, name: String, text: String)]) -> MustacheValue {
        .list(
            texts.filter { !$0.text.isEmpty }.map { field in
                [
                    "label": .string(Messages.rendering.translated(field.label)), "name": .string(field.name),
                    "text": .string(field.text),
                    "rows": .int(min(24, max(2, field.text.count / 60 + 1))),
                ]
            })
    }
}
