import HTTP

/// The mails of an email change: the link to the new address, and the notices to the old one
/// when the address changes or is removed. Plain text and a short HTML part, in the language of
/// the request that caused them. Links are built
/// from the configured base URL, never from the request's `Host` (a forged Host would otherwise
/// carry the token to another site).
struct EmailChangeMail: Sendable {
    let mailer: Mailer
    let siteName: String
    let baseURL: String

    /// The link that makes `email` the account's address once its POST is sent.
    func sendLink(to email: String, username: String, token: String, messages: Messages) {
        let words = MailWords(
            messages, "mail_email_confirm", link: "\(baseURL)/account/email/confirm/\(token)",
            values: ["name": username, "site": siteName])
        send(to: email, words, what: "link")
    }

    /// To the address that was replaced: the change happened, and what to do if it was not the
    /// reader. A password reset would now go to the new address, so it cannot be the way back.
    func sendChangedNotice(to previous: String, username: String, newAddress: String, messages: Messages) {
        let words = MailWords(
            messages, "mail_email_changed", values: ["name": username, "site": siteName, "email": newAddress])
        send(to: previous, words, what: "change notice")
    }

    /// To the address that was removed.
    func sendRemovedNotice(to previous: String, username: String, messages: Messages) {
        let words = MailWords(messages, "mail_email_removed", values: ["name": username, "site": siteName])
        send(to: previous, words, what: "removal notice")
    }

    /// Queues the message; sending happens off the request path. Failures are logged without
    /// the address.
    private func send(to email: String, _ words: MailWords, what: String) {
        mailer.queue(
            to: email, subject: words.subject, text: words.text, html: words.html, what: "email-change \(what)")
    }
}
