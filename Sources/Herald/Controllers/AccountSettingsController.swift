import HTTP
import Mustache

/// `/account`: a reader's settings — password, email, other sessions, export, deletion. Each
/// POST is resumable; the two that carry a password send the reader back to retype it.
struct AccountSettingsController: Sendable {
    let accounts: Accounts
    let views: Views
    /// Mails the confirmation link and the notices of an email change; nil without
    /// `HERALD_SMTP_URL`, and then a new address cannot be confirmed, so it is refused.
    let emailMail: EmailChangeMail?
    /// Mail about replies: the switch on this page (ReplyMailController has the unsubscribe link).
    let replyMail: ReplyMail

    /// Every POST of the page: resumable. The two whose form carries a password are never
    /// performed after login (a password is never captured): the reader lands on the form again.
    var resumableActions: [AnyResumableAction] {
        [
            .init(
                ResumableAction<EmailInput>(
                    name: .changeEmail, path: "/account/email", hashesPassword: true,
                    describe: { input, messages in
                        input.email.isEmpty
                            ? messages["action_remove_email"]
                            : messages.format("action_change_email", ["email": String(input.email.prefix(254))])
                    },
                    returnPath: { _ in "/account#email" },
                    perform: { input, user, context, _ in try changeEmail(input, of: user, &context) },
                    // The password is never captured: after login the form comes back with the new
                    // address filled in, asking for it.
                    formAgain: { input, _, context in
                        try emailForm(
                            context.signedIn(), prefilled: input.email,
                            message: "You are logged in. To change your email address, type your current password.",
                            context: context)
                    }, performedAfterLogin: false)),
            .init(
                ResumableAction<NoInput>(
                    name: .endOtherSessions, path: "/account/sessions/end-others",
                    describe: { _, messages in messages["action_end_other_sessions"] }, returnPath: { _ in "/account" },
                    perform: { _, user, context, _ in try endOtherSessions(of: user, &context) })),
            .init(
                ResumableAction<ReplyMailInput>(
                    name: .replyMail, path: ReplyMailPaths.setting,
                    describe: { input, messages in
                        messages[input.on ? "action_reply_mail_on" : "action_reply_mail_off"]
                    },
                    returnPath: { _ in ReplyMailPaths.section },
                    perform: { input, user, context, _ in try setReplyMail(input, of: user, &context) })),
            .init(
                retype(
                    PasswordChangeInput.self, .changePassword, "/account/password", "action_change_password", "password"
                ) {
                    input, user, context in try changePassword(input, of: user, &context)
                }),
            .init(
                retype(AccountDeletionInput.self, .deleteAccount, "/account/delete", "action_delete_account", "delete")
                {
                    input, user, context in try delete(input, of: user, &context)
                }),
        ]
    }

    func addRoutes(to router: inout Router<RequestContext>) {
        router.group("/account", requires: RouteGuards.readers) { account in
            account.get("") { request, context in try settings(request, context) }
            account.get("/export") { request, context in try export(request, context) }
        }
    }

    struct EmailInput: ResumableInput {
        static let keptFields = ["email"]
        static let secretFields = ["current_password"]
        let email: String
        let currentPassword: String

        init(_ form: KeptForm) {
            email = form.text("email")
            currentPassword = form.text("current_password")
        }
    }

    /// `mail=on` or `mail=off`: anything else is a 400, never read as off.
    struct ReplyMailInput: ResumableInput {
        static let keptFields = ["mail"]
        let on: Bool

        init(_ form: KeptForm) throws(HTTPError) {
            switch form.text("mail") {
            case "on": on = true
            case "off": on = false
            default: throw HTTPError(.badRequest, "The reply mail setting is “on” or “off” (field mail).")
            }
        }
    }

    struct PasswordChangeInput: ResumableInput {
        static let keptFields: [String] = []
        static let secretFields = ["current_password", "new_password"]
        let current: String
        let new: String

        init(_ form: KeptForm) {
            current = form.text("current_password")
            new = form.text("new_password")
        }
    }

    struct AccountDeletionInput: ResumableInput {
        static let keptFields: [String] = []
        static let secretFields = ["password"]
        let password: String

        init(_ form: KeptForm) { password = form.text("password") }
    }

    /// A form with a password field: the password is never captured, so after login the
    /// reader lands on the form again, asked to type it once more. Its password is hashed when it
    /// is performed, so it is answered on the hashing pool.
    private func retype<Input: ResumableInput>(
        _ input: Input.Type, _ name: ResumableActionName, _ path: String, _ whatKey: String, _ anchor: String,
        perform: @escaping @Sendable (Input, User, inout RequestContext) throws -> Response
    ) -> ResumableAction<Input> {
        ResumableAction(
            name: name, path: path, hashesPassword: true, describe: { _, messages in messages[whatKey] },
            returnPath: { _ in "/account#\(anchor)" },
            perform: { input, user, context, _ in try perform(input, user, &context) },
            formAgain: { _, _, context in
                context.nextFlash = context.text("flash_retype_password", ["action": context.text(whatKey)])
                return .redirect(to: "/account#\(anchor)")
            }, performedAfterLogin: false)
    }

    func settings(_ request: Request, _ context: RequestContext) throws -> Response {
        let user = try context.signedIn()
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
        let page = AccountPage(
            account: account, typedEmail: email, pendingEmail: try accounts.pendingEmail(of: user),
            emailPrompt: emailPrompt, canSendMail: emailMail != nil, errors: errors)
        return try views.page(page, title: "Your account", context: context, status: status)
    }

    func changePassword(_ input: PasswordChangeInput, of user: User, _ context: inout RequestContext) throws
        -> Response
    {
        guard let token = context.sessionToken else { throw HTTPError(.forbidden, "Please log in first.") }
        switch try accounts.changePassword(
            of: user, current: input.current, new: input.new, sessionToken: token, address: context.clientAddress)
        {
        case .changed(let newToken):
            context.sessionToken = newToken
            context.csrf?.rebind(toSession: newToken)
            context.nextFlash = "Your password is changed. Every other session of your account has ended."
            var response = Response.redirect(to: "/account")
            response.setCookie(.herald(.session, newToken, secure: context.isSecure))
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
                seconds, "Too many wrong passwords for this account or from your network.", context.messages)
        }
    }

    /// The flash after a change is asked for: the same words whether the address is free (a link
    /// was mailed) or another account holds it (nothing was sent).
    static func checkYourInbox(_ email: String) -> String {
        "Check your inbox at \(email): the change takes effect when you open the link we sent."
    }

    func changeEmail(_ input: EmailInput, of user: User, _ context: inout RequestContext) throws -> Response {
        let typed = input.email
        func refused(_ message: String) throws -> Response {
            try page(user, context, errors: ["email": message], email: typed, status: .unprocessableContent)
        }
        switch try accounts.requestEmailChange(
            of: user, to: typed, password: input.currentPassword, address: context.clientAddress,
            canSendMail: emailMail != nil)
        {
        case .requested(let email, let link):
            if let link {
                emailMail?.sendLink(
                    to: link.email, username: link.username, token: link.token, messages: context.messages)
            }
            context.nextFlash = context.text("flash_check_inbox", ["email": email])
            return .redirect(to: "/account")
        case .removed(let previous):
            if let previous {
                emailMail?.sendRemovedNotice(to: previous, username: user.username, messages: context.messages)
            }
            context.nextFlash = "Your account has no email address now."
            return .redirect(to: "/account")
        case .unchanged(let email):
            context.nextFlash = context.text("flash_email_stays", ["email": email])
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
                seconds, "Too many wrong passwords for this account or from your network.", context.messages)
        case .tooManyRequests(let seconds):
            throw AccountsController.throttled(
                seconds, "Too many email changes were asked for this account or for that address.", context.messages)
        }
    }

    func setReplyMail(_ input: ReplyMailInput, of user: User, _ context: inout RequestContext) throws -> Response {
        switch try replyMail.set(input.on, by: user, canSendMail: emailMail != nil) {
        case .turnedOn:
            context.nextFlash =
                "We will mail you when someone replies to your comments, at most once every 15 minutes."
            return .redirect(to: ReplyMailPaths.section)
        case .turnedOff:
            context.nextFlash = "We will not mail you about replies any more."
            return .redirect(to: ReplyMailPaths.section)
        case .needsConfirmedAddress, .mailUnavailable:
            // The section says why (`AccountPage.replyMailUnavailable`).
            return try page(
                user, context, errors: ["reply_mail": "Mail about replies could not be turned on: see why below."],
                status: .unprocessableContent)
        }
    }

    func endOtherSessions(of user: User, _ context: inout RequestContext) throws -> Response {
        guard let token = context.sessionToken else { throw HTTPError(.forbidden, "Please log in first.") }
        try accounts.endOtherSessions(of: user, keeping: token)
        context.nextFlash = "You are logged out everywhere else."
        return .redirect(to: "/account")
    }

    func export(_ request: Request, _ context: RequestContext) throws -> Response {
        let user = try context.signedIn()
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

    func delete(_ input: AccountDeletionInput, of user: User, _ context: inout RequestContext) throws -> Response {
        switch try accounts.delete(user, password: input.password, address: context.clientAddress) {
        case .deleted:
            context.user = nil
            context.sessionToken = nil
            context.nextFlash = "Your account and everything in it are deleted. Goodbye."
            var response = Response.redirect(to: "/")
            response.setCookie(.heraldExpired(.session, secure: context.isSecure))
            return response
        case .wrongPassword:
            return try page(
                user, context, errors: ["delete": "That is not your password. Nothing was deleted."],
                status: .unprocessableContent)
        case .throttled(let seconds):
            throw AccountsController.throttled(
                seconds, "Too many wrong passwords for this account or from your network.", context.messages)
        }
    }
}
