import HTTP

/// The password-reset email: plain text and a short HTML part, with the site's name and the
/// link, in the language of the request that asked for it. Links are built from the site's
/// address, never from the request's `Host` (a forged Host would otherwise send a reader's token
/// to another site).
struct PasswordResetMail: Sendable {
    let mailer: Mailer
    let siteName: String
    let site: SiteAddress

    /// Queues the message; sending happens off the request path.
    func send(to email: String, username: String, token: String, messages: Messages) {
        let words = MailWords(
            messages, "mail_reset", link: "\(site.baseURL)/password/reset/\(token)",
            values: ["name": username, "site": siteName])
        mailer.queue(
            to: email, subject: words.subject, text: words.text, html: words.html, what: "password-reset mail")
    }
}
