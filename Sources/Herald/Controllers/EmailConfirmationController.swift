import HTTP
import Mustache

/// `/account/email/confirm/{token}`: the link mailed to a new address. Its GET changes nothing
/// (mail scanners and link previews follow links): it shows the address and one button, whose
/// POST makes the change. The POST needs no login (the token is the proof), and passes the
/// cross-site check like every other POST.
struct EmailConfirmationController: Sendable {
    let accounts: Accounts
    let views: Views
    /// Nil without `HERALD_SMTP_URL`: no notice to the old address then.
    let emailMail: EmailChangeMail?

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/account/email/confirm/:token") { request, context in try confirmPage(request, context) }
        router.post("/account/email/confirm/:token") { request, context in try confirm(request, &context) }
    }

    private func confirmPage(_ request: Request, _ context: RequestContext) throws -> Response {
        let token = request.parameters["token"] ?? ""
        guard let change = try accounts.emailChange(token: token) else { throw Self.noSuchLink }
        let page = EmailConfirmPage(token: token, email: change.email, username: change.username)
        return try views.page(page, title: "Confirm your new email address", context: context)
    }

    func confirm(_ request: Request, _ context: inout RequestContext) throws -> Response {
        let token = request.parameters["token"] ?? ""
        switch try accounts.confirmEmailChange(token: token) {
        case .changed(let user, let email, let previous):
            if let previous {
                emailMail?.sendChangedNotice(
                    to: previous, username: user.username, newAddress: email, messages: context.messages)
            }
            if context.user?.id == user.id {
                context.nextFlash = context.text("flash_email_now", ["email": email])
                return .redirect(to: "/account")
            }
            // Another browser (a phone's mail app), or another account's: say it, and offer a login.
            context.nextFlash = context.text("flash_email_of_now", ["name": user.username, "email": email])
            return .redirect(to: "/login")
        case .taken(let email):
            throw HTTPError(
                .conflict,
                "Another account started using \(email) after you asked for the change, so your address was not "
                    + "changed. You can ask again with a different address on your account page.")
        case .noSuchLink:
            throw Self.noSuchLink
        case .suspended:
            throw HTTPError(
                .forbidden, "This account is suspended: a moderator has banned it, so its address was not changed.")
        }
    }

    static let noSuchLink = HTTPError(
        .notFound,
        "This confirmation link is no longer valid: it was used already, a newer change replaced it, or it is more "
            + "than 24 hours old. Nothing was changed. You can ask again on your account page."
    )
}
