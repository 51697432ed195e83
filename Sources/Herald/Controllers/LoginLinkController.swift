import HTTP

/// Sign in by a mailed link (SPEC third wave): `/login/link` asks for one; the link's page never
/// logs in by itself (mail scanners follow links), its POST does. The action pending in the
/// browser that asked travels with the link: opened in that same browser it is performed as after
/// a password login; opened in another, it is shown in full and done only after Confirm.
struct LoginLinkController: Sendable {
    static let sentMessage =
        "If that address can be used here, a link is on its way. Open it within 15 minutes, here or on another device."

    let accounts: Accounts
    let views: Views
    let afterLogin: AfterLogin
    /// Nil without `HERALD_SMTP_URL`: logging in by email is then not offered.
    let mail: LoginLinkMail?

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get(LoginLinkPaths.ask) { request, context in try askPage(request, context) }
        router.post(LoginLinkPaths.ask) { request, context in try ask(request, &context) }
        router.get("/login/link/:token") { request, context in try openPage(request, context) }
        router.post("/login/link/:token") { request, context in try logIn(request, &context) }
        router.group("/login/link", requires: RouteGuards.readers) { link in
            link.get("/:token/confirm") { request, context in try confirmPage(request, context) }
            link.post("/:token/confirm") { request, context in try confirm(request, &context) }
            link.post("/:token/cancel") { request, context in try cancel(request, &context) }
        }
    }

    static let noSuchLink = HTTPError(
        .notFound,
        "This sign-in link is no longer valid: it was used already, or it is more than 15 minutes old. You can ask for a new one at /login/link."
    )

    private func askPage(
        _ request: Request, _ context: RequestContext, email: String = "", error: String? = nil,
        status: HTTPStatus = .ok
    ) throws -> Response {
        if context.user != nil { return .redirect(to: "/") }
        let page = LoginLinkPage(
            available: mail != nil, email: email, error: error,
            pending: try afterLogin.pendingDescription(request, context))
        return try views.page(page, title: "Log in with a link", context: context, status: status)
    }

    func ask(_ request: Request, _ context: inout RequestContext) throws -> Response {
        guard let mail else { return try askPage(request, context) }
        let email = try request.form()["email"] ?? ""
        let browser = BrowserID.digest(context.csrf?.browserID ?? "")
        switch try accounts.requestLoginLink(
            email: email, address: context.clientAddress, browser: browser,
            intent: afterLogin.intents.pendingCookie(request, context))
        {
        case .requested(let token, let address, let username):
            mail.send(to: address, username: username, token: token, messages: context.messages)
            context.nextFlash = Self.sentMessage
            return .redirect(to: LoginLinkPaths.ask)
        case .invalidAddress:
            return try askPage(
                request, context, email: email, error: "That does not look like an email address (name@example.com).",
                status: .unprocessableContent)
        case .throttled(let seconds):
            throw AccountsController.throttled(
                seconds, "Too many sign-in links were asked for from your network or for that address.",
                context.messages)
        }
    }

    private func openPage(
        _ request: Request, _ context: RequestContext, chosen: String = "", errors: [String] = [],
        status: HTTPStatus = .ok
    ) throws -> Response {
        let token = request.parameters["token"] ?? ""
        guard let (link, account) = try accounts.loginLink(token) else { throw Self.noSuchLink }
        let page = LoginLinkOpenPage(
            token: token, email: link.email, username: account?.username,
            carried: isThisBrowser(link, request, context)
                ? nil
                : try link.intent.flatMap {
                    try afterLogin.intents.describeCarried($0, messages: context.messages)?.what
                }, chosen: chosen, errors: errors)
        let title = account == nil ? "Create your account" : "Log in"
        return try views.page(page, title: title, context: context, status: status)
    }

    /// The link's POST: logs in (a new session; the account's other sessions stay), then does what
    /// was pending in this browser, or asks to confirm what the link carried from another.
    func logIn(_ request: Request, _ context: inout RequestContext) throws -> Response {
        let token = request.parameters["token"] ?? ""
        let chosen = try request.form()["username"]
        switch try accounts.logIn(withLink: token, newUsername: chosen, address: context.clientAddress) {
        case .loggedIn(let user, let sessionToken, let link):
            var next: String? = nil
            if link.intent != nil {
                if isThisBrowser(link, request, context) {
                    // Its own cookie brings the action back here, as after a password login.
                    _ = try accounts.carriedAction(token, for: user, take: true)
                } else {
                    next = LoginLinkPaths.confirm(token)
                }
            }
            context.nextFlash = context.text("flash_logged_in_as", ["name": user.username])
            return try afterLogin.complete(request, &context, user: user, sessionToken: sessionToken, next: next)
        case .invalidName(let problems):
            return try openPage(request, context, chosen: chosen ?? "", errors: problems, status: .unprocessableContent)
        case .usernameTaken:
            return try openPage(
                request, context, chosen: chosen ?? "",
                errors: ["The username “\(chosen ?? "")” is already taken. Please choose another."], status: .conflict)
        case .noSuchLink:
            throw Self.noSuchLink
        case .suspended(let ban):
            return try afterLogin.suspended(ban, request, context)
        }
    }

    private func confirmPage(_ request: Request, _ context: RequestContext) throws -> Response {
        let token = request.parameters["token"] ?? ""
        guard let carried = try accounts.carriedAction(token, for: context.signedIn(), take: false),
            let intent = carried.intent,
            let (what, typed) = try afterLogin.intents.describeCarried(intent, messages: context.messages)
        else { throw Self.nothingCarried }
        let page = CarriedActionPage(token: token, what: what, texts: typed)
        return try views.page(page, title: "Do what you started?", context: context)
    }

    func confirm(_ request: Request, _ context: inout RequestContext) throws -> Response {
        let user = try context.signedIn()
        let token = request.parameters["token"] ?? ""
        guard let carried = try accounts.carriedAction(token, for: user, take: true), let intent = carried.intent else {
            throw Self.nothingCarried
        }
        return try afterLogin.intents.performCarried(intent, &context, user: user) ?? .redirect(to: "/")
    }

    func cancel(_ request: Request, _ context: inout RequestContext) throws -> Response {
        let token = request.parameters["token"] ?? ""
        if let carried = try accounts.carriedAction(token, for: context.signedIn(), take: true),
            let intent = carried.intent
        {
            try afterLogin.intents.discardCarried(intent)
            context.nextFlash = "Cancelled: what you had started was not done."
        }
        return .redirect(to: "/")
    }

    static let nothingCarried = HTTPError(
        .notFound, "There is nothing waiting to be confirmed here: it was done or cancelled already, or it is too old.")

    /// Whether this request comes from the browser that asked for the link.
    private func isThisBrowser(_ link: LoginLinkRecord, _ request: Request, _ context: RequestContext) -> Bool {
        BrowserID.matches(link.browser, id: request.cookie(.browser, secure: context.isSecure))
    }
}
