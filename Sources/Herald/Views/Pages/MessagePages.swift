import HTTP
import Mustache

/// `error.mustache`: an error's status, its reason phrase and what to do.
struct ErrorPage: PageModel {
    let template = PageTemplate.error
    let error: HTTPError

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "status": .int(error.status.code)
        case "reason": .string(error.status.reason)
        case "message": .string(error.message)
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
