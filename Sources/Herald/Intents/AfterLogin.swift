import HTTP

/// What happens the moment a reader is logged in (by login or registration): the new
/// session cookie is set, then the pending action, if any, is performed and the reader
/// lands where it returns; otherwise they go to `next` (checked local) or the front page.
struct AfterLogin: Sendable {
    let intents: PendingActions
    let accounts: Accounts
    /// The page for a pending action the account may not perform (403), the session kept.
    let refusalPage: @Sendable (HTTPError, RequestContext) -> Response
    /// The same with what the reader typed shown back (label, field name, text).
    let returnedTextPage: @Sendable (String, HTTPStatus, [(label: String, name: String, text: String)], RequestContext) -> Response

    func complete(
        _ request: Request, _ context: inout RequestContext, user: User, sessionToken: String, next: String?
    ) throws -> Response {
        // Logging in again while logged in: the old session ends, it is not left behind.
        if let previous = context.sessionToken { try accounts.logout(sessionToken: previous) }
        context.user = user
        context.sessionToken = sessionToken
        context.csrf?.rebind(toSession: sessionToken)
        var response: Response
        do {
            response = try intents.resume(request, &context) ?? .redirect(to: next ?? "/")
        } catch let refused as PendingActions.Refused {
            response = refused.response ?? refusalPage(refused.error, context)
        }
        response.setCookie(.herald(CookieNames.session, sessionToken, secure: context.isSecure))
        // Performed or void, a pending action is finished with; and the anonymous CSRF binding:
        // forms are now bound to the session.
        response.expireCookie(CookieNames.intent, sentIn: request, secure: context.isSecure)
        response.expireCookie(CookieNames.anonymous, sentIn: request, secure: context.isSecure)
        return response
    }

    /// A banned account's correct password: 403, nothing pending performed (and the pending
    /// action dropped), with what the reader had typed into it shown back to copy.
    func suspended(_ request: Request, _ context: RequestContext) throws -> Response {
        var message = "This account is suspended: a moderator has banned it, so it cannot log in."
        let texts = try intents.pendingText(request)
        if !texts.isEmpty { message += " What you had started was not done; here is what you wrote." }
        var response = returnedTextPage(message, .forbidden, texts, context)
        try intents.discard(request)
        response.expireCookie(CookieNames.intent, sentIn: request, secure: context.isSecure)
        return response
    }

    /// "like “Title”" for the login and register pages, when an action is pending.
    func pendingDescription(_ request: Request) throws -> String? {
        try intents.describePending(request)
    }
}
