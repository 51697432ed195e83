import HTTP
import Mustache

/// `/account`: a reader's settings — password, email, other sessions, export, deletion. Each
/// POST is resumable; the two that carry a password send the reader back to retype it.
struct AccountSettingsController: Sendable {
    let accounts: Accounts
    let views: Views
    let hashingPool: WorkerPool
    /// Mails the confirmation link and the notices of an email change; nil without
    /// `HERALD_SMTP_URL`, and then a new address cannot be confirmed, so it is refused.
    let emailMail: EmailChangeMail?

    var resumableActions: [ResumableAction] {
        [
            ResumableAction(
                .changeEmail, keeping: ["email"], describe: { _ in "change your email address" },
                returnPath: { _ in "/account" }
            ) { request, context in try changeEmail(request, &context) },
            ResumableAction(
                .endOtherSessions, describe: { _ in "log out everywhere else" }, returnPath: { _ in "/account" }
            ) { request, context in try endOtherSessions(request, &context) },
            retype(.changePassword, "change your password", anchor: "password") { request, context in
                try changePassword(request, &context)
            },
            retype(.deleteAccount, "delete your account", anchor: "delete") { request, context in
                try delete(request, &context)
            },
        ]
    }

    func addRoutes(to router: inout Router<RequestContext>, intents: PendingActions) {
        let actions = Dictionary(resumableActions.map { ($0.name, $0) }) { first, _ in first }
        router.get("/account") { request, context in try settings(request, context) }
        router.get("/account/export") { request, context in try export(request, context) }
        for (path, name, pool) in [
            ("/account/email", ResumableActionName.changeEmail, hashingPool),
            ("/account/sessions/end-others", .endOtherSessions, nil),
            ("/account/password", .changePassword, hashingPool),
            ("/account/delete", .deleteAccount, hashingPool),
        ] {
            if let action = actions[name] { router.post(path, on: pool, intents.route(action)) }
        }
    }

    /// A form with a password field: the password is never captured, so after login the
    /// reader lands on the form again, asked to type it once more.
    private func retype(
        _ name: ResumableActionName, _ what: String, anchor: String, handler: @escaping Handler<RequestContext>
    ) -> ResumableAction {
        ResumableAction(
            name, describe: { _ in what }, returnPath: { _ in "/account#\(anchor)" },
            resume: { _, context in
                context.nextFlash = "You are logged in. For your safety, please type your password again to \(what)."
                return .redirect(to: "/account#\(anchor)")
            }, handler: handler)
    }

    func settings(_ request: Request, _ context: RequestContext) throws -> Response {
        let user: User
        switch try PageAccess.check(request, context) {
        case .allowed(let reader): user = reader
        case .loginFirst(let redirect): return redirect
        }
        return try page(user, context)
    }

    /// The account page with the email form filled with `email` and `message` beside it (200):
    /// for an email change that was started before logging in, which comes back after login
    /// with the new address typed in, asking for the current password (never captured).
    func emailForm(
        _ user: User, prefilled email: String, message: String, context: RequestContext, status: HTTPStatus = .ok
    ) throws -> Response {
        try page(user, context, email: email, emailPrompt: message, status: status)
    }

    private func page(
        _ user: User, _ context: RequestContext, errors: [String: String] = [:], email: String? = nil,
        emailPrompt: String? = nil, status: HTTPStatus = .ok
    ) throws -> Response {
        guard let account = try accounts.account(of: user) else {
            throw HTTPError(.notFound, "This account no longer exists.")
        }
        var model: [String: MustacheValue] = [
            "username": .string(account.user.username),
            "joined": .string(DateText.long(account.createdAt)),
            "email": .string(email ?? account.email ?? ""),
            "has_email": .bool(account.email != nil),
            "pending_email": try accounts.pendingEmail(of: user).map(MustacheValue.string) ?? .null,
            "email_prompt": emailPrompt.map(MustacheValue.string) ?? .null,
            "can_send_mail": .bool(emailMail != nil),
            "roles": account.roles.names.isEmpty ? .null : .string(account.roles.names.joined(separator: ", ")),
            "is_editor": .bool(account.roles.grants(.editor)),
        ]
        for (field, message) in errors { model["\(field)_error"] = .string(message) }
        return try views.page("account", title: "Your account", model: model, context: context, status: status)
    }

    func changePassword(_ request: Request, _ context: inout RequestContext) throws -> Response {
        guard let user = context.user, let token = context.sessionToken else {
            throw HTTPError(.forbidden, "Please log in first.")
        }
        let form = try request.form()
        switch try accounts.changePassword(
            of: user, current: form["current_password"] ?? "", new: form["new_password"] ?? "", sessionToken: token,
            address: context.clientAddress)
        {
        case .changed(let newToken):
            context.sessionToken = newToken
            context.csrf?.rebind(toSession: newToken)
            context.nextFlash = "Your password is changed. Every other session of your account has ended."
            var response = Response.redirect(to: "/account")
            response.setCookie(.herald(CookieNames.session, newToken, secure: context.isSecure))
            return response
        case .wrongPassword:
            return try page(
                user, context, errors: ["password": "Your current password is not right. Please try again."],
                status: .unprocessableContent)
        case .invalid(let problems):
            return try page(
                user, context, errors: ["password": problems.joined(separator: " ")], status: .unprocessableContent)
        case .throttled(let seconds):
            throw AccountsController.throttled(
                seconds, "Too many wrong passwords for this account or from your network.")
        }
    }

    /// The flash after a change is asked for: the same words whether the address is free (a link
    /// was mailed) or another account holds it (nothing was sent).
    static func checkYourInbox(_ email: String) -> String {
        "Check your inbox at \(email): the change takes effect when you open the link we sent."
    }

    func changeEmail(_ request: Request, _ context: inout RequestContext) throws -> Response {
        guard let user = context.user else { throw HTTPError(.forbidden, "Please log in first.") }
        let form = try request.form()
        let typed = form["email"] ?? ""
        func refused(_ message: String) throws -> Response {
            try page(user, context, errors: ["email": message], email: typed, status: .unprocessableContent)
        }
        switch try accounts.requestEmailChange(
            of: user, to: typed, password: form["current_password"] ?? "", address: context.clientAddress,
            canSendMail: emailMail != nil)
        {
        case .requested(let email, let link):
            if let link { emailMail?.sendLink(to: link.email, username: link.username, token: link.token) }
            context.nextFlash = Self.checkYourInbox(email)
            return .redirect(to: "/account")
        case .removed(let previous):
            if let previous { emailMail?.sendRemovedNotice(to: previous, username: user.username) }
            context.nextFlash = "Your account has no email address now."
            return .redirect(to: "/account")
        case .unchanged(let email):
            context.nextFlash = "Your email address stays \(email)."
            return .redirect(to: "/account")
        case .invalid:
            return try refused("That does not look like an email address (name@example.com). Please check it.")
        case .passwordMissing:
            return try refused("Please type your current password to change your email address.")
        case .wrongPassword:
            return try refused("Your current password is not right, so your email address was not changed.")
        case .mailUnavailable:
            return try refused(
                "This site sends no email, so a new address cannot be confirmed here. "
                    + "You can still remove your address: leave the field empty.")
        case .throttled(let seconds):
            throw AccountsController.throttled(
                seconds, "Too many wrong passwords for this account or from your network.")
        case .tooManyRequests(let seconds):
            throw AccountsController.throttled(
                seconds, "Too many email changes were asked for this account or for that address.")
        }
    }

    func endOtherSessions(_ request: Request, _ context: inout RequestContext) throws -> Response {
        guard let user = context.user, let token = context.sessionToken else {
            throw HTTPError(.forbidden, "Please log in first.")
        }
        try accounts.endOtherSessions(of: user, keeping: token)
        context.nextFlash = "You are logged out everywhere else."
        return .redirect(to: "/account")
    }

    func export(_ request: Request, _ context: RequestContext) throws -> Response {
        let user: User
        switch try PageAccess.check(request, context) {
        case .allowed(let reader): user = reader
        case .loginFirst(let redirect): return redirect
        }
        guard let json = try accounts.export(of: user) else {
            throw HTTPError(.notFound, "This account no longer exists.")
        }
        return Response(
            status: .ok,
            headers: HTTPHeaders([
                ("Content-Type", "application/json; charset=utf-8"),
                ("Content-Disposition", "attachment; filename=\"herald-\(user.username).json\""),
            ]), body: Array(json))
    }

    func delete(_ request: Request, _ context: inout RequestContext) throws -> Response {
        guard let user = context.user else { throw HTTPError(.forbidden, "Please log in first.") }
        switch try accounts.delete(user, password: try request.form()["password"] ?? "", address: context.clientAddress)
        {
        case .deleted:
            context.user = nil
            context.sessionToken = nil
            context.nextFlash = "Your account and everything in it are deleted. Goodbye."
            var response = Response.redirect(to: "/")
            response.setCookie(.heraldExpired(CookieNames.session, secure: context.isSecure))
            return response
        case .wrongPassword:
            return try page(
                user, context, errors: ["delete": "That is not your password. Nothing was deleted."],
                status: .unprocessableContent)
        case .throttled(let seconds):
            throw AccountsController.throttled(
                seconds, "Too many wrong passwords for this account or from your network.")
        }
    }
}
