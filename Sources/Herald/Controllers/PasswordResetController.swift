import HTTP
import Mustache

/// `/password/forgot` and `/password/reset/{token}`: a forgotten password is reset by a link
/// sent by email, and the reset logs the reader in and performs what was pending, exactly as a
/// login does.
struct PasswordResetController: Sendable {
    static let sentMessage = "If an account uses that address, a link is on its way."

    let accounts: Accounts
    let views: Views
    let hashingPool: WorkerPool
    let afterLogin: AfterLogin
    /// Nil when no SMTP server is configured: reset by email is then not offered.
    let resetMail: PasswordResetMail?

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/password/forgot") { request, context in try forgotPage(context) }
        router.post("/password/forgot") { request, context in try forgot(request, &context) }
        router.get("/password/reset/:token") { request, context in try resetPage(request, context) }
        router.post("/password/reset/:token", on: hashingPool) { request, context in try reset(request, &context) }
    }

    private func forgotPage(
        _ context: RequestContext, email: String = "", error: String? = nil, status: HTTPStatus = .ok
    ) throws -> Response {
        let page = ForgotPage(available: resetMail != nil, email: email, error: error)
        return try views.page(page, title: "Forgotten password", context: context, status: status)
    }

    func forgot(_ request: Request, _ context: inout RequestContext) throws -> Response {
        guard let resetMail else { return try forgotPage(context) }
        let email = try request.form()["email"] ?? ""
        switch try accounts.requestPasswordReset(email: email, address: context.clientAddress) {
        case .requested(let link):
            if let link {
                resetMail.send(to: link.email, username: link.username, token: link.token, messages: context.messages)
            }
            context.nextFlash = Self.sentMessage
            return .redirect(to: "/password/forgot")
        case .invalidAddress:
            return try forgotPage(
                context, email: email, error: "That does not look like an email address (name@example.com).",
                status: .unprocessableContent)
        case .throttled(let seconds):
            throw AccountsController.throttled(
                seconds, "Too many reset links were asked for from your network or for that address.", context.messages)
        }
    }

    private func resetPage(_ request: Request, _ context: RequestContext) throws -> Response {
        let token = request.parameters["token"] ?? ""
        guard try accounts.isLiveResetLink(token) else { throw Self.noSuchLink }
        return try resetForm(token, request, context)
    }

    private func resetForm(
        _ token: String, _ request: Request, _ context: RequestContext, errors: [String] = [], status: HTTPStatus = .ok
    ) throws -> Response {
        // What the reset will also do, when an action begun in this browser waits for a login.
        let page = ResetPage(
            token: token, errors: errors, pending: try afterLogin.pendingDescription(request, context))
        return try views.page(page, title: "Choose a new password", context: context, status: status)
    }

    func reset(_ request: Request, _ context: inout RequestContext) throws -> Response {
        let token = request.parameters["token"] ?? ""
        switch try accounts.resetPassword(token: token, to: try request.form()["new_password"] ?? "") {
        case .reset(let user, let sessionToken):
            context.nextFlash = "Your password is changed, and you are logged in."
            return try afterLogin.complete(request, &context, user: user, sessionToken: sessionToken, next: nil)
        case .invalid(let problems):
            return try resetForm(token, request, context, errors: problems, status: .unprocessableContent)
        case .noSuchLink:
            throw Self.noSuchLink
        case .suspended(let ban):
            return try afterLogin.suspended(ban, request, context)
        }
    }

    static let noSuchLink = HTTPError(
        .notFound,
        "This password-reset link is no longer valid: it was used already, or it is more than an hour old. You can ask for a new one at /password/forgot."
    )
}
