import HTTP

extension SetCookie {
    /// A Herald cookie (SPEC, "Cookies"): Path=/, HttpOnly, SameSite=Lax, no Domain; over HTTPS
    /// Secure and named with the `__Host-` prefix. Every cookie Herald sets is made here.
    static func herald(_ cookie: HeraldCookie, _ value: String, maxAge: Int? = nil, secure: Bool) -> SetCookie {
        SetCookie(
            name: cookie.name(secure: secure), value: value, maxAge: maxAge, path: "/", httpOnly: true,
            sameSite: .lax, secure: secure)
    }

    /// Tells the browser to drop Herald cookie `cookie` (same attributes, so it replaces it).
    static func heraldExpired(_ cookie: HeraldCookie, secure: Bool) -> SetCookie {
        herald(cookie, "", secure: secure).expired
    }
}
