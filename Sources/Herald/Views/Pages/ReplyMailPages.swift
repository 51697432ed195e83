import Mustache

/// `unsubscribe.mustache`: the reply mail's unsubscribe link. Opened (GET), it changes nothing
/// and shows one button; after the POST (the button, or a mail provider's one-click), it says the
/// mails have stopped.
struct UnsubscribePage: PageModel {
    let template = PageTemplate.unsubscribe
    let token: String
    let username: String
    /// The POST was made: the setting is off.
    let done: Bool

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "action": .string(ReplyMailPaths.unsubscribe(token))
        case "username": .string(username)
        case "done_text": .string(Messages.rendering.format("unsubscribe_done_text", ["name": username]))
        case "ask_text": .string(Messages.rendering.format("unsubscribe_text", ["name": username]))
        case "done": .bool(done)
        default: nil
        }
    }
}

/// Where the reply-mail forms post: shared by the route table and the views.
enum ReplyMailPaths {
    /// The account page's switch.
    static let setting = "/account/reply-mail"
    /// The account page's section, where the switch lands.
    static let section = "/account#reply-mail"
    static let unsubscribePrefix = "/mail/unsubscribe/"
    static let unsubscribeRoute = unsubscribePrefix + ":token"
    static func unsubscribe(_ token: String) -> String { unsubscribePrefix + token }
}
