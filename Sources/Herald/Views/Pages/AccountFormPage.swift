import HTTP
import Mustache

/// `login.mustache` and `register.mustache`: the form, its errors, and what is pending.
struct AccountFormPage: PageModel {
    let isRegister: Bool
    let username: String
    let email: String
    /// Where to go after (a checked local path).
    let next: String?
    let errors: [String]
    /// What a pending action begun in this browser will do ("like “Title”"), and its cancel label.
    let pending: PendingActions.Description?

    var template: PageTemplate { isRegister ? .register : .login }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "username": .string(username)
        case "email": .string(email)
        case "is_register": .bool(isRegister)
        case "next": next.map(MustacheValue.string) ?? .null
        case "errors": .list(errors.map { .string(Messages.rendering.translated($0)) })
        case "has_errors": .bool(!errors.isEmpty)
        case "other_url":
            .string(next.map { otherPath + "?next=" + PercentEncoding.encode($0) } ?? otherPath)
        case "pending": pending.map(Self.pendingValue) ?? .null
        default: nil
        }
    }

    private var otherPath: String { isRegister ? "/login" : "/register" }

    /// `text` ("like “Title”") and `cancel_label` ("Cancel the like").
    static func pendingValue(_ pending: PendingActions.Description) -> MustacheValue {
        .dictionary(
            MustacheDictionary([
                "text": .string(pending.text), "cancel_label": .string(pending.cancelLabel),
                "login_line": .string(pending.loginLine), "register_line": .string(pending.registerLine),
                "login_link_line": .string(pending.loginLinkLine), "reset_line": .string(pending.resetLine),
                "link_line": .string(pending.linkLine),
            ]))
    }
}
