import Mustache

/// `account.mustache`: a reader's settings — email (and a change waiting for its link), password,
/// sessions, export, deletion — with the errors of a refused form.
struct AccountPage: PageModel {
    let template = PageTemplate.account
    let account: StoredAccount
    /// What the email field shows instead of the stored address (a refused or resumed change).
    let typedEmail: String?
    /// A new address waiting for its confirmation link.
    let pendingEmail: String?
    /// A message beside the email form (a change started before logging in comes back here).
    let emailPrompt: String?
    let canSendMail: Bool
    /// By form (`email`, `password`, `delete`, `reply_mail`).
    let errors: [String: String]

    /// Why mail about replies cannot be turned on here, or nil when it can.
    var replyMailUnavailable: String? {
        if !canSendMail { return "This site sends no email, so it cannot mail you about replies." }
        if account.email == nil {
            return "Mail about replies goes to a confirmed email address, and your account has none: add one above."
        }
        if !account.emailConfirmed {
            return "Mail about replies goes only to a confirmed email address. Yours is not confirmed yet: "
                + "log in once with a link mailed to it (Log in with a link), or change it above and open the link we send."
        }
        return nil
    }

    func value(forKey key: String) -> MustacheValue? {
        if key.hasSuffix("_error") {
            return errors[String(key.dropLast(6))].map { .string(Messages.rendering.translated($0)) }
        }
        switch key {
        case "username": return .string(account.user.username)
        case "joined": return .string(DateText.long(account.createdAt))
        case "email": return .string(typedEmail ?? account.email ?? "")
        case "has_email": return .bool(account.email != nil)
        case "pending_email": return pendingEmail.map(MustacheValue.string) ?? .null
        case "email_prompt": return emailPrompt.map(MustacheValue.string) ?? .null
        case "can_send_mail": return .bool(canSendMail)
        case "roles":
            // Each role's name in the page's language (`role_editor`), listed the way it lists.
            let messages = Messages.rendering
            let names = account.roles.names.map { messages["role_" + $0] }
            // Chinese lists with the enumeration comma (、), English with ", " (a catalog text cannot
            // end in a space).
            return names.isEmpty
                ? .null : .string(names.joined(separator: messages.language == .english ? ", " : "、"))
        case "is_editor": return .bool(Newsroom.mayWrite(account.user))
        case "mails_replies": return .bool(account.mailsReplies)
        case "may_mail_replies": return .bool(canSendMail && account.mayMailReplies)
        case "reply_mail_unavailable":
            return replyMailUnavailable.map { .string(Messages.rendering.translated($0)) } ?? .null
        default: return nil
        }
    }
}

/// `email-confirm.mustache`: the mailed link's page — the new address and one button.
struct EmailConfirmPage: PageModel {
    let template = PageTemplate.emailConfirm
    let token: String
    let email: String
    let username: String

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "action": .string("/account/email/confirm/" + token)
        case "email": .string(email)
        case "username": .string(username)
        default: nil
        }
    }
}

/// `forgot.mustache`: ask for a reset link (or say mail is not available here).
struct ForgotPage: PageModel {
    let template = PageTemplate.forgot
    let available: Bool
    let email: String
    let error: String?

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "available": .bool(available)
        case "email": .string(email)
        case "error": error.map { .string(Messages.rendering.translated($0)) } ?? .null
        default: nil
        }
    }
}

/// `reset.mustache`: choose a new password, and what a pending action will do then.
struct ResetPage: PageModel {
    let template = PageTemplate.reset
    let token: String
    let errors: [String]
    let pending: PendingActions.Description?

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "action": .string("/password/reset/" + token)
        case "errors": .list(errors.map { .string(Messages.rendering.translated($0)) })
        case "has_errors": .bool(!errors.isEmpty)
        case "pending": pending.map(AccountFormPage.pendingValue) ?? .null
        default: nil
        }
    }
}
