import HTTP
import Mustache

/// The mails of an email change: the link to the new address, and the notices to the old one
/// when the address changes or is removed. Plain text and a short HTML part. Links are built
/// from the configured base URL, never from the request's `Host` (a forged Host would otherwise
/// carry the token to another site).
struct EmailChangeMail: Sendable {
    let mailer: Mailer
    let siteName: String
    let baseURL: String

    /// The link that makes `email` the account's address once its POST is sent.
    func sendLink(to email: String, username: String, token: String) {
        let link = "\(baseURL)/account/email/confirm/\(token)"
        let text = """
            Hello \(username),

            Someone (we hope you) asked to use this address for the account “\(username)” on \(siteName).
            To confirm it, open this link within 24 hours and press “Confirm this address”:

            \(link)

            The link works once. Until it is used, the account keeps its old address.
            If you did not ask for this, ignore this message: nothing changes.
            """
        let html = """
            <p>Hello \(escapeHTML(username)),</p>
            <p>Someone (we hope you) asked to use this address for the account “\(escapeHTML(username))” on \
            \(escapeHTML(siteName)). To confirm it, open this link within 24 hours and press “Confirm this address”:</p>
            <p><a href="\(escapeHTML(link))">Confirm this address</a></p>
            <p>The link works once. Until it is used, the account keeps its old address. \
            If you did not ask for this, ignore this message: nothing changes.</p>
            """
        send(to: email, subject: "Confirm your new email address on \(siteName)", text: text, html: html, what: "link")
    }

    /// To the address that was replaced: the change happened, and what to do if it was not the
    /// reader. A password reset would now go to the new address, so it cannot be the way back.
    func sendChangedNotice(to previous: String, username: String, newAddress: String) {
        let text = """
            Hello \(username),

            The email address of your account “\(username)” on \(siteName) was changed to \(newAddress). \
            Messages from \(siteName), password-reset links included, now go there, not here.

            If this was you, there is nothing to do.
            If it was not, someone who knows your password did it: log in and change your password \
            now, then change the address back, and tell the people who run \(siteName).
            """
        let html = """
            <p>Hello \(escapeHTML(username)),</p>
            <p>The email address of your account “\(escapeHTML(username))” on \(escapeHTML(siteName)) was changed \
            to <strong>\(escapeHTML(newAddress))</strong>. Messages from \(escapeHTML(siteName)), password-reset \
            links included, now go there, not here.</p>
            <p>If this was you, there is nothing to do. If it was not, someone who knows your password did it: \
            log in and change your password now, then change the address back, and tell the people who run \
            \(escapeHTML(siteName)).</p>
            """
        send(
            to: previous, subject: "Your email address on \(siteName) was changed", text: text, html: html,
            what: "change notice")
    }

    /// To the address that was removed.
    func sendRemovedNotice(to previous: String, username: String) {
        let text = """
            Hello \(username),

            This address was removed from your account “\(username)” on \(siteName): it has no email \
            address now, so \(siteName) will not write to you here again (nor send you a password-reset link).

            If this was you, there is nothing to do.
            If it was not, someone who knows your password did it: log in and change your password now, \
            and tell the people who run \(siteName).
            """
        let html = """
            <p>Hello \(escapeHTML(username)),</p>
            <p>This address was removed from your account “\(escapeHTML(username))” on \(escapeHTML(siteName)): \
            it has no email address now, so \(escapeHTML(siteName)) will not write to you here again (nor send you \
            a password-reset link).</p>
            <p>If this was you, there is nothing to do. If it was not, someone who knows your password did it: \
            log in and change your password now, and tell the people who run \(escapeHTML(siteName)).</p>
            """
        send(
            to: previous, subject: "Your email address was removed from \(siteName)", text: text, html: html,
            what: "removal notice")
    }

    /// Queues the message; sending happens off the request path. Failures are logged without
    /// the address.
    private func send(to email: String, subject: String, text: String, html: String, what: String) {
        mailer.queue(to: email, subject: subject, text: text, html: html, what: "email-change \(what)")
    }
}
