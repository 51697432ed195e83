import HTTP

/// The sign-in link's email: plain text and a short HTML part, in the language of the request
/// that asked for it. The link is built from the configured base URL, never from the request's
/// `Host`.
struct LoginLinkMail: Sendable {
    let mailer: Mailer
    let siteName: String
    let baseURL: String

    /// Queues the message; sending happens off the request path.
    func send(to email: String, username: String?, token: String, messages: Messages) {
        let words = MailWords(
            messages, username == nil ? "mail_link_new" : "mail_link", link: baseURL + LoginLinkPaths.link(token),
            values: ["name": username ?? "", "site": siteName])
        mailer.queue(to: email, subject: words.subject, text: words.text, html: words.html, what: "sign-in link mail")
    }
}
