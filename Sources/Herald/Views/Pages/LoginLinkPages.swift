import Mustache

/// `login-link.mustache`: ask for a sign-in link, with what is pending in this browser.
struct LoginLinkPage: PageModel {
    let template = PageTemplate.loginLink
    let available: Bool
    let email: String
    let error: String?
    let pending: PendingActions.Description?

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "available": .bool(available)
        case "email": .string(email)
        case "error": error.map { .string(Messages.rendering.translated($0)) } ?? .null
        case "pending": pending.map(AccountFormPage.pendingValue) ?? .null
        default: nil
        }
    }
}

/// `login-link-open.mustache`: the mailed link's page, which never logs in by itself: one button,
/// "Log in as NAME", or for an address with no account a name to choose and "Create account".
struct LoginLinkOpenPage: PageModel {
    let template = PageTemplate.loginLinkOpen
    let token: String
    let email: String
    /// The account the link logs into; nil when none uses the address yet.
    let username: String?
    /// What the link carries from the browser that asked for it, when opened elsewhere.
    let carried: String?
    let chosen: String
    let errors: [String]

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "action": .string(LoginLinkPaths.link(token))
        case "email": .string(email)
        case "username": username.map(MustacheValue.string) ?? .null
        case "carried": carried.map(MustacheValue.string) ?? .null
        case "chosen": .string(chosen)
        case "errors": .list(errors.map { .string(Messages.rendering.translated($0)) })
        case "has_errors": .bool(!errors.isEmpty)
        default: nil
        }
    }
}

/// `login-link-confirm.mustache`: an action carried by the link from another browser, shown in
/// full (its text too) with Confirm and Cancel; never done without the click.
struct CarriedActionPage: PageModel {
    let template = PageTemplate.loginLinkConfirm
    let token: String
    let what: String
    let texts: [(label: String, name: String, text: String)]

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "what": .string(what.prefix(1).uppercased() + what.dropFirst() + "?")
        case "confirm_action": .string(LoginLinkPaths.confirm(token))
        case "cancel_action": .string(LoginLinkPaths.cancel(token))
        case "texts":
            ReturnedTextPage.values(of: texts)
        default: nil
        }
    }
}

/// Where sign-in links and their steps are.
enum LoginLinkPaths {
    static let ask = "/login/link"
    static func link(_ token: String) -> String { "/login/link/" + token }
    static func confirm(_ token: String) -> String { "/login/link/" + token + "/confirm" }
    static func cancel(_ token: String) -> String { "/login/link/" + token + "/cancel" }
}
