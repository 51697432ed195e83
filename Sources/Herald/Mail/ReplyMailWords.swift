/// Every word of the reply digest mail, from the catalogs in the reader's language (SPEC
/// "Language": every mail in the reader's language), so how the mail is built knows no language.
struct ReplyMailWords: Sendable {
    let messages: Messages

    /// English between phrases puts a space; Chinese does not.
    private var space: String { messages.language == .english ? " " : "" }

    /// Names the (first) article: `otherArticles` more are counted.
    func subject(count: Int, articleTitle: String, otherArticles: Int) -> String {
        let base =
            count == 1
            ? messages.format("mail_reply_subject_one", ["title": articleTitle])
            : messages.format("mail_reply_subject", ["count": String(count), "title": articleTitle])
        switch otherArticles {
        case 0: return base
        case 1: return base + space + messages["mail_reply_and_one_other"]
        default: return base + space + messages.format("mail_reply_and_others", ["count": String(otherArticles)])
        }
    }

    func greeting(_ username: String) -> String { messages.format("mail_reply_greeting", ["name": username]) }

    func summary(count: Int, siteName: String) -> String {
        count == 1
            ? messages.format("mail_reply_summary_one", ["site": siteName])
            : messages.format("mail_reply_summary", ["count": String(count), "site": siteName])
    }

    /// Above an article's replies.
    func onArticle(_ title: String) -> String { messages.format("mail_reply_on_article", ["title": title]) }

    /// One reply's first line.
    func replyBy(_ author: String) -> String { messages.format("mail_reply_by", ["name": author]) }

    var readIt: String { messages["mail_reply_read_it"] }

    func more(_ count: Int) -> String {
        messages.format(count == 1 ? "mail_reply_more_one" : "mail_reply_more", ["count": String(count)])
    }

    var allReplies: String { messages["mail_reply_all_replies"] }
    var why: String { messages["mail_reply_why"] }
    var unsubscribeText: String { messages["mail_reply_unsubscribe_text"] }
    var unsubscribeButton: String { messages["unsubscribe_button"] }
    var settingsText: String { messages["mail_reply_settings_text"] }
    /// The HTML part's link to the account page.
    var settingsLink: String { messages["mail_reply_settings_link"] }
}
