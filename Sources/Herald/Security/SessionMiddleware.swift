import HTTP

/// Finds the reader behind the `herald_session` cookie. A cookie for a dead session is cleared,
/// except one whose session ended by expiry less than a day ago: it still says whose browser this
/// was (`Accounts.recentSessionOwner`), so an editor whose session ran out while writing, and who
/// loads another page before pressing Save, still gets the save parked for after the login.
/// A session its account's ban ended is told so: a POST made with it is refused (403, "This
/// account is suspended"), not captured for after a login that could never come.
struct SessionMiddleware: Middleware {
    let accounts: Accounts
    /// The page for a POST made with a suspended session, given the POST (to show what it carried).
    let suspendedPage: @Sendable (HTTPError, Request, RequestContext) -> Response

    static let suspended = HTTPError(
        .forbidden, "This account is suspended: a moderator has banned it. Nothing was done, and you are logged out.")

    func handle(_ request: Request, context: inout RequestContext, next: Next<RequestContext>) throws -> Response {
        var staleCookie = false
        if let token = request.cookie(.session, secure: context.isSecure) {
            switch try accounts.session(token) {
            case .active(let user):
                context.user = user
                context.sessionToken = token
            case .suspended where request.method == .post:
                var response = suspendedPage(Self.suspended, request, context)
                response.setCookie(.heraldExpired(.session, secure: context.isSecure))
                return response
            case .suspended:
                staleCookie = true
            case nil:
                staleCookie = try accounts.recentSessionOwner(token) == nil
            }
        }
        var response = try next(request, &context)
        // Only when the handler did not set a new session itself (login).
        if staleCookie && !response.setsCookie(.session, secure: context.isSecure) {
            response.setCookie(.heraldExpired(.session, secure: context.isSecure))
        }
        return response
    }
}
