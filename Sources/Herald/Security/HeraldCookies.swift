import HTTP

extension SetCookie {
    /// A Herald cookie (SPEC, "Cookies"): Path=/, HttpOnly, SameSite=Lax, and Secure when the
    /// request came over HTTPS. Every cookie Herald sets is made here.
    static func herald(_ name: String, _ value: String, maxAge: Int? = nil, secure: Bool) -> SetCookie {
        SetCookie(name: name, value: value, maxAge: maxAge, path: "/", httpOnly: true, sameSite: .lax, secure: secure)
    }

    /// Tells the browser to drop Herald cookie `name` (same attributes, so it replaces it).
    static func heraldExpired(_ name: String, secure: Bool) -> SetCookie {
        herald(name, "", secure: secure).expired
    }
}
