import HTTP

/// The cookies Herald sets (SPEC, "Cookies"). All are HttpOnly and SameSite=Lax.
///
/// Over HTTPS each name carries the `__Host-` prefix (SPEC, third wave): a browser accepts such a
/// cookie only from a secure origin, with `Path=/` and no `Domain`, so neither a sibling subdomain
/// nor someone on the network speaking plain HTTP to the browser can plant one (a planted intent
/// or browser id is what would make an action run for the wrong person). Over plain HTTP (a
/// developer's loopback) browsers refuse the prefix, so the names stay bare there.
enum HeraldCookie: String, Sendable, CaseIterable {
    case session = "herald_session"
    case intent = "herald_intent"
    /// The browser's own random id: what anonymous form tokens are bound to, and what a pending
    /// action records (hashed) so that it is performed only in the browser that began it.
    case browser = "herald_csrf"
    case flash = "herald_flash"
    /// The interface language the reader chose (`POST /language`), for a year.
    case language = "herald_lang"

    static let securePrefix = "__Host-"

    /// The name this cookie has on a request that came over HTTPS (`secure`) or not.
    func name(secure: Bool) -> String {
        secure ? Self.securePrefix + rawValue : rawValue
    }
}

extension Request {
    /// The value of Herald cookie `cookie` under the name it has on this request.
    func cookie(_ cookie: HeraldCookie, secure: Bool) -> String? {
        cookies[cookie.name(secure: secure)]
    }
}
