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
    /// What a pending action begun in this browser will do ("like “Title”").
    let pending: String?

    var template: PageTemplate { isRegister ? .register : .login }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "username": .string(username)
        case "email": .string(email)
        case "is_register": .bool(isRegister)
        case "next": next.map(MustacheValue.string) ?? .null
        case "errors": .list(errors.map(MustacheValue.string))
        case "has_errors": .bool(!errors.isEmpty)
        case "other_url":
            .string(next.map { otherPath + "?next=" + PercentEncoding.encode($0) } ?? otherPath)
        case "pending": pending.map { .dictionary(MustacheDictionary(["text": .string($0)])) } ?? .null
        default: nil
        }
    }

    private var otherPath: String { isRegister ? "/login" : "/register" }
}
