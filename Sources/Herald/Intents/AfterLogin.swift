import HTTP

/// What happens the moment a reader is logged in (by login, registration or a password reset):
/// the new session cookie is set, then the pending action begun in this browser, if any, is
/// performed and the reader lands where it returns; otherwise they go to `next` (checked local)
/// or the front page.
struct AfterLogin: Sendable {
    let intents: PendingActions
    let accounts: Accounts
    /// Where a resumed action runs. Logins are answered on the password-hashing pool (low
    /// priority, few threads, a bounded queue); the action they resume is ordinary work — a
    /// comment posted, an article with its image saved — and is done on these threads instead, at
    /// ordinary priority, while the login waits for it.
    let actionPool: WorkerPool
    /// A banned account's page, with what the reader had typed shown back (message, status, texts).
    let returnedTextPage:
        @Sendable (String, HTTPStatus, [(label: String, name: String, text: String)], RequestContext) -> Response

    func complete(
        _ request: Request, _ context: inout RequestContext, user: User, sessionToken: String, next: String?
    ) throws -> Response {
        // Logging in again while logged in: the old session ends, it is not left behind.
        if let previous = context.sessionToken { try accounts.logout(sessionToken: previous) }
        context.user = user
        context.sessionToken = sessionToken
        context.csrf?.rebind(toSession: sessionToken)
        let (resumed, after) = try actionPool.perform { [context] in
            var resumedContext = context
            let response = try intents.resume(request, &resumedContext, user: user)
            return (response, resumedContext)
        }
        context = after
        var response = resumed ?? .redirect(to: next ?? "/")
        response.setCookie(.herald(.session, sessionToken, secure: context.isSecure))
        // Performed or void, a pending action is finished with.
        response.expireCookie(.intent, sentIn: request, secure: context.isSecure)
        return response
    }

    /// A banned account's correct password: 403, nothing pending performed (and the pending
    /// action dropped), with what the reader had typed into it shown back to copy. Says until
    /// when, so the reader knows whether to wait.
    func suspended(_ ban: User.Ban, _ request: Request, _ context: RequestContext) throws -> Response {
        var message = context.text(
            "msg_suspended_cannot_log_in", ["length": BanText.length(until: ban.until, context.messages)])
        let texts = try intents.pendingText(request, context)
        if !texts.isEmpty {
            message += (context.language == .english ? " " : "") + context.text("msg_started_not_done")
        }
        var response = returnedTextPage(message, .forbidden, texts, context)
        try intents.discard(request, context)
        response.expireCookie(.intent, sentIn: request, secure: context.isSecure)
        return response
    }

    /// "like “Title”" (and "Cancel the like") for the login, register and reset pages, when an
    /// action begun in this browser is pending.
    func pendingDescription(_ request: Request, _ context: RequestContext) throws -> PendingActions.Description? {
        try intents.describePending(request, context)
    }
}
