import HTTP
import Mustache

/// `ban.mustache`: the ban form on a page of its own, with what the moderator typed put back and
/// why it was refused (no reason, a length the form does not offer, a note too long).
struct BanPage: PageModel {
    let template = PageTemplate.ban
    let username: String
    let message: String
    let reason: String
    let duration: String
    let hideComments: Bool
    let back: String

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "author": .string(username)
        case "message": .string(message)
        case "id": .string("page")
        case "ban_action": .string(ModerationPaths.ban(username))
        case "ban_reason": .string(reason)
        case "ban_back": .string(back)
        case "ban_hide_comments": .bool(hideComments)
        case "ban_durations": BanDurationChoices.values(checked: duration)
        default: nil
        }
    }
}

/// The ban form's lengths as radio buttons: one checked (the one sent, else one day).
enum BanDurationChoices {
    static func values(checked: String = BanLength.oneDay.rawValue) -> MustacheValue {
        let chosen = BanLength(rawValue: checked) ?? .oneDay
        return .list(
            BanLength.allCases.map { length in
                [
                    "value": .string(length.rawValue), "label": .string(label(length)),
                    "checked": .bool(length == chosen),
                ]
            })
    }

    static func label(_ length: BanLength) -> String {
        switch length {
        case .oneDay: "1 day"
        case .sevenDays: "7 days"
        case .permanent: "Permanently"
        }
    }
}

/// The addresses of an account's moderation forms, shared by the pages that offer them.
enum ModerationPaths {
    static func ban(_ username: String) -> String { "/users/\(PercentEncoding.encode(username))/ban" }
}
