import HTTP
import Mustache

/// The password-reset email: plain text and a short HTML part, with the site's name and the
/// link. Links are built from the site's address, never from the request's `Host` (a forged
/// Host would otherwise send a reader's token to another site).
struct PasswordResetMail: Sendable {
    let mailer: Mailer
    let siteName: String
    let site: SiteAddress
    let log: Logger

    /// Queues the message; sending happens off the request path.
    func send(to email: String, username: String, token: String) {
        let link = "\(site.baseURL)/password/reset/\(token)"
        let text = """
            Hello \(username),

            Someone (we hope you) asked to reset the password of your account on \(siteName).
            To choose a new password, open this link within an hour:

            \(link)

            The link works once. If you did not ask for it, ignore this message: your password stays as it is.
            """
        let html = """
            <p>Hello \(escapeHTML(username)),</p>
            <p>Someone (we hope you) asked to reset the password of your account on \(escapeHTML(siteName)). \
            To choose a new password, open this link within an hour:</p>
            <p><a href="\(escapeHTML(link))">Choose a new password</a></p>
            <p>The link works once. If you did not ask for it, ignore this message: your password stays as it is.</p>
            """
        do {
            let message = try mailer.message(
                to: try MailAddress(email), subject: "Reset your password on \(siteName)", text: text, html: html)
            if mailer.send(message) == .queueFull { log.warning("password-reset mail dropped: the mail queue is full") }
        } catch {
            log.warning("password-reset mail not sent: \(error)")
        }
    }
}
