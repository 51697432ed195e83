import HTTP
import Mustache

/// Log in, register, log out. Password work runs on the hashing pool, never on page threads.
struct AccountsController: Sendable {
    let accounts: Accounts
    let views: Views
    let hashingPool: WorkerPool
    /// Runs what the reader was doing before they had to log in (a pending action or `next`).
    let afterLogin: AfterLogin

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/login") { request, context in try form(.login, request, context) }
        router.get("/register") { request, context in try form(.register, request, context) }
        router.post("/login", on: hashingPool) { request, context in try logIn(request, &context) }
        router.post("/register", on: hashingPool) { request, context in try register(request, &context) }
        router.post("/logout") { request, context in try logOut(request, &context) }
    }

    enum Kind: String { case login, register }

    func form(_ kind: Kind, _ request: Request, _ context: RequestContext) throws -> Response {
        let next = NextPath.validated(request.query["next"])
        if context.user != nil { return .redirect(to: next ?? "/") }
        return try page(kind, request: request, context: context, next: next)
    }

    /// The fields both forms post: a name, a password, and where to go after (checked local).
    private func credentials(_ request: Request) throws -> (username: String, password: String, next: String?) {
        let form = try request.form()
        return (form["username"] ?? "", form["password"] ?? "", NextPath.validated(form["next"]))
    }

    func logIn(_ request: Request, _ context: inout RequestContext) throws -> Response {
        let (username, password, next) = try credentials(request)
        switch try accounts.login(username: username, password: password, address: context.clientAddress) {
        case .loggedIn(let user, let token):
            return try afterLogin.complete(request, &context, user: user, sessionToken: token, next: next)
        case .failed:
            return try page(
                .login, request: request, context: context, next: next, username: username,
                errors: ["That username and password do not match. Please try again."], status: .unprocessableContent)
        case .throttled(let seconds):
            throw Self.throttled(
                seconds, "Too many failed logins for this account or from your network.", context.messages)
        case .suspended(let ban):
            return try afterLogin.suspended(ban, request, context)
        }
    }

    func register(_ request: Request, _ context: inout RequestContext) throws -> Response {
        let (username, password, next) = try credentials(request)
        let email = try request.form()["email"]
        switch try accounts.register(
            username: username, password: password, email: email, address: context.clientAddress,
            // The language they registered in: mail sent to them later is written in it.
            language: context.language.rawValue)
        {
        case .registered(let user, let token):
            return try afterLogin.complete(request, &context, user: user, sessionToken: token, next: next)
        case .invalid(let problems):
            return try page(
                .register, request: request, context: context, next: next, username: username, email: email,
                errors: problems, status: .unprocessableContent)
        case .usernameTaken:
            return try page(
                .register, request: request, context: context, next: next, username: username, email: email,
                errors: [context.text("error_username_taken", ["name": username])], status: .conflict)
        case .emailTaken:
            return try page(
                .register, request: request, context: context, next: next, username: username, email: email,
                errors: ["Another account already uses that email address."], status: .conflict)
        case .throttled(let seconds):
            throw Self.throttled(seconds, "Too many accounts were created from your network.", context.messages)
        }
    }

    func logOut(_ request: Request, _ context: inout RequestContext) throws -> Response {
        if let token = context.sessionToken { try accounts.logout(sessionToken: token) }
        var response = Response.redirect(to: "/")
        response.setCookie(.heraldExpired(.session, secure: context.isSecure))
        try afterLogin.intents.discard(request, context)
        response.expireCookie(.intent, sentIn: request, secure: context.isSecure)
        if context.user != nil { context.nextFlash = "You have logged out." }
        return response
    }

    /// The login or register page, with what is pending and any errors.
    func page(
        _ kind: Kind, request: Request, context: RequestContext, next: String?, username: String = "",
        email: String? = nil, errors: [String] = [], status: HTTPStatus = .ok
    ) throws -> Response {
        let page = AccountFormPage(
            isRegister: kind == .register, username: username, email: email ?? "", next: next, errors: errors,
            pending: try afterLogin.pendingDescription(request, context))
        return try views.page(page, title: kind == .login ? "Log in" : "Register", context: context, status: status)
    }

    /// A 429 saying why (an English reason, shown in the reader's language when the catalog has
    /// it) and how long to wait, in the request's language.
    static func throttled(_ seconds: Int, _ reason: String, _ messages: Messages) -> HTTPError {
        let minutes = (seconds + 59) / 60
        let wait =
            minutes <= 1
            ? messages["error_try_again_in_a_minute"]
            : messages.format("error_try_again_in_minutes", ["minutes": String(minutes)])
        return .tooManyRequests(
            retryAfter: seconds, messages.translated(reason) + (messages.language == .english ? " " : "") + wait)
    }
}
