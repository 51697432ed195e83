import HTTP

/// Refuses cross-site state changes before any handler runs (SPEC, "Rules").
///
/// For each POST: `Sec-Fetch-Site` (sent by current browsers), when present, must be
/// `same-origin` or `none`; `Origin`, when present, must be this site (`null` is refused) —
/// either header saying "elsewhere" refuses the request; with neither header, the form's
/// `csrf_token` must be valid for this visitor.
/// It also gives every request the token its forms carry, issuing the anonymous
/// cookie the token is bound to when the visitor has none yet.
struct CrossOriginProtection: Middleware {
    static let formField = "csrf_token"

    let tokens: CSRFTokens
    /// A configured public base URL; its origin counts as this site too.
    let baseURL: String?
    /// Path prefixes whose POSTs carry their own proof in the last path segment, checked by their
    /// handler: that token stands in for the form's, and only at exactly one segment below the
    /// prefix. A browser saying the POST came from elsewhere is still refused. The one use is the
    /// reply mail's one-click unsubscribe (RFC 8058), which a mail provider posts from its own
    /// servers with no cookie, no form token and no `Origin`; its token names one account and all
    /// it can do is turn that account's reply mail off.
    var tokenAuthenticated: [String] = []
    /// Exact paths whose POST only sets a preference (the interface language, `POST /language`):
    /// a browser saying the POST came from elsewhere is refused as everywhere, but no form token is
    /// asked, so the footer's switcher puts no token on every page — the anonymous front page stays
    /// one copy shared by every reader, with no cookie minted for it. A header-less forgery can do
    /// no more than choose the language a page is shown in.
    var preferenceOnly: Set<String> = []

    func handle(_ request: Request, context: inout RequestContext, next: Next<RequestContext>) throws -> Response {
        let browserID = request.cookie(.browser, secure: context.isSecure).flatMap {
            BrowserID.isWellFormed($0) ? $0 : nil
        }
        // A session cookie the session middleware found dead (it is not in the context).
        let staleSession = context.sessionToken == nil ? request.cookie(.session, secure: context.isSecure) : nil
        let csrf = CSRFBinding(
            tokens: tokens, session: context.sessionToken, browserID: browserID,
            staleSession: staleSession.flatMap { $0.utf8.count <= 128 ? $0 : nil })
        context.csrf = csrf

        // POST is the only method that changes anything here; other methods reach the router
        // and get their 405 with `Allow`.
        if request.method == .post {
            try check(request, csrf: csrf)
        }

        var response = try next(request, &context)
        // A first-time visitor was given an id (a form rendered for them, or an action captured):
        // the browser keeps it as its cookie.
        if let newAnonymousID = csrf.newAnonymousID {
            response.setCookie(.herald(.browser, newAnonymousID, secure: context.isSecure))
        }
        return response
    }

    private func check(_ request: Request, csrf: CSRFBinding) throws {
        let site = request.headers["Sec-Fetch-Site"]
        let origin = request.headers["Origin"]
        if let site, site != "same-origin" && site != "none" { throw Self.refusal }
        if let origin, !isThisSite(origin: origin, host: request.headers["Host"]) { throw Self.refusal }
        if site != nil || origin != nil || isTokenAuthenticated(request.path) || preferenceOnly.contains(request.path) {
            return
        }
        let token = (try? request.form())?[Self.formField]
        guard csrf.accepts(token) else {
            throw HTTPError(
                .forbidden,
                "This form has expired or did not come from this site. Please go back, reload the page and try again.")
        }
    }

    /// `/mail/unsubscribe/TOKEN`, nothing shorter or longer.
    private func isTokenAuthenticated(_ path: String) -> Bool {
        tokenAuthenticated.contains { prefix in
            path.hasPrefix(prefix) && path.count > prefix.count && !path.dropFirst(prefix.count).contains("/")
        }
    }

    private func isThisSite(origin: String, host: String?) -> Bool {
        if origin == "null" { return false }
        if let baseURL, origin == Self.origin(of: baseURL) { return true }
        guard let host, !host.isEmpty else { return false }
        return origin == "http://" + host || origin == "https://" + host
    }

    /// `https://news.example/path` → `https://news.example`.
    static func origin(of url: String) -> String {
        guard let schemeEnd = url.range(of: "://") else { return url }
        let rest = url[schemeEnd.upperBound...]
        let host = rest.split(separator: "/", maxSplits: 1).first ?? ""
        return String(url[..<schemeEnd.upperBound]) + host
    }

    static let refusal = HTTPError(
        .forbidden, "This request came from another site, so it was refused. Nothing was changed.")
}
