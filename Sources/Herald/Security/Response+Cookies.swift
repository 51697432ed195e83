import HTTP

/// Cookie checks Herald makes on a response before it is sent.
extension Response {
    func setsCookie(_ cookie: HeraldCookie, secure: Bool) -> Bool {
        let prefix = cookie.name(secure: secure) + "="
        return headers.values(for: "Set-Cookie").contains { $0.hasPrefix(prefix) }
    }

    /// Tells the browser to drop Herald cookie `cookie`, when the request shows it has one.
    mutating func expireCookie(_ cookie: HeraldCookie, sentIn request: Request, secure: Bool) {
        if request.cookie(cookie, secure: secure) != nil { setCookie(.heraldExpired(cookie, secure: secure)) }
    }
}
