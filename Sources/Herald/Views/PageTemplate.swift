import Mustache

/// Every template Herald renders by name, checked against `Templates/` when the app starts (a
/// missing one stops start-up, not a request). Partials (`layout`, `pager`, `account-form`) are
/// checked by the library itself, through the templates that use them.
enum PageTemplate: String, CaseIterable, Sendable {
    case front, article, likes, search, login, register, profile, replies, account, forgot, reset
    case editorDesk = "editor-desk"
    case editorArticle = "editor-article"
    case commentEdit = "comment-edit"
    case moderation, error
    case emailConfirm = "email-confirm"
    case loginLink = "login-link"
    case loginLinkOpen = "login-link-open"
    case loginLinkConfirm = "login-link-confirm"
    case returnedText = "returned-text"
    case unsubscribe
    case ban
    /// Documents and fragments, rendered without the layout.
    case feed, comment

    /// Throws naming the first template that `library` does not hold.
    static func checkAll(in library: TemplateLibrary) throws {
        for template in allCases where try library.template(named: template.rawValue) == nil {
            throw TemplateError(.missingTemplate(template.rawValue), path: template.rawValue)
        }
    }
}

/// A page's own values: one struct per template, its keys in one place, made in `Views/Pages/`.
/// The layout's values (site, reader, flash, token) are added by `Views.page`.
protocol PageModel: MustacheObject {
    var template: PageTemplate { get }
}

/// The newer and older links of page `number` of a paged list (`pager.mustache` reads
/// `newer_url` and `older_url`): one value for every paged list.
struct Pager: Sendable {
    let newerURL: String?
    let olderURL: String?

    /// `base` is the list's first page (it may hold a query already); `parameter` names the page
    /// number in the query; `fragment` ends every link (`#comments`).
    init(base: String, page number: Int, hasOlder: Bool, parameter: String = "page", fragment: String = "") {
        let separator = base.contains("?") ? "&" : "?"
        func link(_ page: Int) -> String {
            (page == 1 ? base : base + separator + parameter + "=" + String(page)) + fragment
        }
        newerURL = number > 1 ? link(number - 1) : nil
        olderURL = hasOlder ? link(number + 1) : nil
    }

    var hasPages: Bool { newerURL != nil || olderURL != nil }

    /// `newer_url`, `older_url` (under `prefix`, e.g. `comments_`), and `has_pager`.
    func value(forKey key: String, prefix: String = "") -> MustacheValue? {
        guard key.hasPrefix(prefix) else { return nil }
        switch key.dropFirst(prefix.count) {
        case "newer_url": return newerURL.map(MustacheValue.string) ?? .null
        case "older_url": return olderURL.map(MustacheValue.string) ?? .null
        case "has_pager": return .bool(hasPages)
        default: return nil
        }
    }
}
