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
    /// POST routes that need no form token. A browser saying the POST came from elsewhere is
    /// refused on them as everywhere; only the token a header-less client would carry is not asked.
    var withoutFormToken: [FormTokenExemption] = []

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
        if site != nil || origin != nil || withoutFormToken.contains(where: { $0.matches(request.path) }) { return }
        let token = (try? request.form())?[Self.formField]
        guard csrf.accepts(token) else {
            throw HTTPError(
                .forbidden,
                "This form has expired or did not come from this site. Please go back, reload the page and try again.")
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

/// A POST route `CrossOriginProtection` asks no form token of, and why it may do without.
enum FormTokenExemption: Sendable {
    /// A route that only sets a preference kept in the browser (`POST /language`): the footer's
    /// switcher then puts no token on every page, so the anonymous front page stays one copy
    /// shared by every reader, with no cookie minted for it. A header-less forgery can do no more
    /// than choose the language pages are shown in.
    case preference(path: String)
    /// Routes whose last segment is their own proof, checked by their handler, at exactly one
    /// segment below `prefix`: the reply mail's one-click unsubscribe (RFC 8058), which a mail
    /// provider posts from its servers with no cookie and no form token; its token names one
    /// account, and all it can do is turn that account's reply mail off.
    case tokenInPath(prefix: String)

    func matches(_ path: String) -> Bool {
        switch self {
        case .preference(let exact):
            return path == exact
        case .tokenInPath(let prefix):
            guard path.hasPrefix(prefix) else { return false }
            let token = path.dropFirst(prefix.count)
            return !token.isEmpty && !token.contains("/")
        }
    }
}
