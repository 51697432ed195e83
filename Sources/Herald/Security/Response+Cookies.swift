import HTTP

/// Cookie checks Herald makes on a response before it is sent.
extension Response {
    func setsCookie(_ name: String) -> Bool {
        headers.values(for: "Set-Cookie").contains { $0.hasPrefix(name + "=") }
    }

    /// Tells the browser to drop cookie `name`, when the request shows it has one.
    mutating func expireCookie(_ name: String, sentIn request: Request, secure: Bool) {
        if request.cookies[name] != nil { setCookie(.heraldExpired(name, secure: secure)) }
    }
}
