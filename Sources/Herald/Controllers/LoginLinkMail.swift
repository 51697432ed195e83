import HTTP
import Mustache

/// The sign-in link's email: plain text and a short HTML part. The link is built from the
/// configured base URL, never from the request's `Host`.
struct LoginLinkMail: Sendable {
    let mailer: Mailer
    let siteName: String
    let baseURL: String
    let log: Logger

    /// Queues the message; sending happens off the request path.
    func send(to email: String, username: String?, token: String) {
        let link = baseURL + LoginLinkPaths.link(token)
        let greeting = username.map { "Hello \($0)," } ?? "Hello,"
        let purpose = username == nil ? "create your account on \(siteName)" : "log in to \(siteName)"
        let text = """
            \(greeting)

            Someone (we hope you) asked for a link to \(purpose). Open it within 15 minutes, on this
            device or any other:

            \(link)

            The link works once. Opening it does nothing by itself: you press one button on the page.
            If you did not ask for it, ignore this message.
            """
        let html = """
            <p>\(escapeHTML(greeting))</p>
            <p>Someone (we hope you) asked for a link to \(escapeHTML(purpose)). Open it within 15 minutes, \
            on this device or any other:</p>
            <p><a href="\(escapeHTML(link))">\(username == nil ? "Create your account" : "Log in")</a></p>
            <p>The link works once. Opening it does nothing by itself: you press one button on the page. \
            If you did not ask for it, ignore this message.</p>
            """
        do {
            let message = try mailer.message(
                to: try MailAddress(email), subject: "Your link to \(purpose)", text: text, html: html)
            if mailer.send(message) == .queueFull { log.warning("sign-in link mail dropped: the mail queue is full") }
        } catch {
            log.warning("sign-in link mail not sent: \(error)")
        }
    }
}
