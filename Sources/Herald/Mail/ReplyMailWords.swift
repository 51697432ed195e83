/// Every English word of the reply digest mail, in one place, so that the interface's other
/// languages can give their own (SPEC "Language": every mail in the reader's language) without
/// touching how the mail is built.
struct ReplyMailWords: Sendable {
    static let english = ReplyMailWords()

    /// Names the (first) article: `otherArticles` more are counted.
    func subject(count: Int, articleTitle: String, otherArticles: Int) -> String {
        let replies = count == 1 ? "A reply" : "\(count) replies"
        switch otherArticles {
        case 0: return "\(replies) to your comments on “\(articleTitle)”"
        case 1: return "\(replies) to your comments on “\(articleTitle)” and one other article"
        default: return "\(replies) to your comments on “\(articleTitle)” and \(otherArticles) other articles"
        }
    }

    func greeting(_ username: String) -> String { "Hello \(username)," }

    func summary(count: Int, siteName: String) -> String {
        count == 1
            ? "Someone replied to your comment on \(siteName):"
            : "\(count) replies to your comments on \(siteName):"
    }

    /// Above an article's replies.
    func onArticle(_ title: String) -> String { "On “\(title)”:" }

    /// One reply's first line.
    func replyBy(_ author: String) -> String { "\(author) wrote:" }

    let readIt = "Read it"

    func more(_ count: Int) -> String {
        "…and \(count) more \(count == 1 ? "reply" : "replies"). See them all:"
    }

    let allReplies = "All replies to you"

    let why =
        "You get this mail because you asked for mail about replies to your comments (at most one every 15 minutes)."

    let unsubscribeText = "To stop these mails, open this link and press Unsubscribe:"

    let unsubscribeButton = "Unsubscribe"

    let settingsText = "Or change it on your account page:"

    /// The HTML part's link to the account page.
    let settingsLink = "Your account page"
}
