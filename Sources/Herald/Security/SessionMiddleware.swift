import HTTP

/// Finds the reader behind the `herald_session` cookie. A cookie for a dead session is cleared.
struct SessionMiddleware: Middleware {
    let accounts: Accounts

    func handle(_ request: Request, context: inout RequestContext, next: Next<RequestContext>) throws -> Response {
        var staleCookie = false
        if let token = request.cookies[CookieNames.session] {
            if let user = try accounts.user(sessionToken: token) {
                context.user = user
                context.sessionToken = token
            } else {
                staleCookie = true
            }
        }
        var response = try next(request, &context)
        // Only when the handler did not set a new session itself (login).
        if staleCookie && !response.setsCookie(CookieNames.session) {
            response.setCookie(.heraldExpired(CookieNames.session, secure: context.isSecure))
        }
        return response
    }
}
