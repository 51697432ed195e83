import HTTP
import Mustache

/// `error.mustache`: what went wrong in plain words, what to do, and a way on — for a page that
/// was not found, a search form and the latest articles (SPEC "Pages, in small ways").
struct ErrorPage: PageModel {
    let template = PageTemplate.error
    let error: HTTPError
    /// The newest articles, offered on a 404 page; empty elsewhere.
    var latest: [Article] = []

    /// The heading: words for people, not the reason phrase ("Forbidden", "Too Many Requests").
    var heading: String { Self.heading(for: error.status) }

    static func heading(for status: HTTPStatus) -> String {
        switch status.code {
        case 400: "We could not understand that request"
        case 403: "You can’t do that here"
        case 404: "We could not find that page"
        case 405: "That does not work at this address"
        case 409: "That clashed with another change"
        case 413: "That is too large to send"
        case 414, 431: "That address is too long"
        case 415: "We cannot read that kind of file"
        case 422: "That could not be done"
        case 429: "Too many tries for now"
        case 503: "We are too busy right now"
        case 500...: "Something went wrong on our side"
        default: "That could not be done"
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
                    "label": .string(field.label), "name": .string(field.name), "text": .string(field.text),
                    "rows": .int(min(24, max(2, field.text.count / 60 + 1))),
                ]
            })
    }
}
