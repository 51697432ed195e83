import HTTP

/// Chooses the interface language of each request (SPEC, "Language"): the reader's own choice
/// (the `herald_lang` cookie set by `POST /language`), else `Accept-Language` by q-values, else
/// the site's `HERALD_LANGUAGE`. Runs after `ClientInfo`, which says whether the cookie carries
/// the `__Host-` prefix.
struct LanguageNegotiation: Middleware {
    let catalogs: MessageCatalogs

    func handle(_ request: Request, context: inout RequestContext, next: Next<RequestContext>) throws -> Response {
        let language = Self.negotiate(
            cookie: request.cookie(.language, secure: context.isSecure),
            acceptLanguage: request.headers["Accept-Language"], site: catalogs.site)
        context.use(catalogs[language])
        return try next(request, &context)
    }

    static func negotiate(cookie: String?, acceptLanguage: String?, site: InterfaceLanguage) -> InterfaceLanguage {
        if let cookie, let chosen = InterfaceLanguage(rawValue: cookie) { return chosen }
        return AcceptLanguage.preferred(acceptLanguage) ?? site
    }
}

/// Says on every page and JSON answer that it is written in the request's language and that
/// another `Accept-Language` may get another one. Outside the error pages, so that they say it too.
struct LanguageHeaders: Middleware {
    func handle(_ request: Request, context: inout RequestContext, next: Next<RequestContext>) throws -> Response {
        var response = try next(request, &context)
        guard let type = response.headers["Content-Type"],
            type.hasPrefix("text/html") || type.hasPrefix("application/json")
        else { return response }
        // Nothing else sets these: added, not searched for first.
        response.headers.add("Content-Language", context.language.rawValue)
        response.headers.addVary("Accept-Language")
        return response
    }
}

extension HTTPHeaders {
    /// Adds `name` to `Vary` beside what is there already.
    mutating func addVary(_ name: String) {
        if let vary = self["Vary"] {
            if !vary.split(separator: ",").contains(where: { $0.trimmingPrefix(" ") == name }) {
                set("Vary", vary + ", " + name)
            }
        } else {
            add("Vary", name)
        }
    }
}
