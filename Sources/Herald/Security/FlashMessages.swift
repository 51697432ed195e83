import HTTP

/// One-shot messages across a redirect ("You liked “Title”"), in a signed cookie:
/// read and cleared on the next page, never shown twice.
struct FlashMessages: Middleware {
    static let maximumBytes = 600

    let keys: SecretKeys

    func handle(_ request: Request, context: inout RequestContext, next: Next<RequestContext>) throws -> Response {
        let incoming = request.cookie(.flash, secure: context.isSecure)
        if let incoming { context.flash = decode(incoming) }
        var response = try next(request, &context)
        if let message = context.nextFlash {
            response.setCookie(.herald(.flash, encode(message), secure: context.isSecure))
        } else if incoming != nil && (!response.status.isRedirect || context.flash == nil) {
            // Shown on this page (or unreadable): gone. A redirect keeps it for the page after.
            response.setCookie(.heraldExpired(.flash, secure: context.isSecure))
        }
        return response
    }

    func encode(_ message: String) -> String {
        let text = Array(String(message.prefix(Self.maximumBytes)).utf8)
        return Sodium.base64URL(text) + "." + Sodium.base64URL(mac(text))
    }

    func decode(_ cookie: String) -> String? {
        let parts = cookie.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let text = Sodium.decodeBase64URL(String(parts[0]), maximumBytes: 4096),
            let tag = Sodium.decodeBase64URL(String(parts[1])), Sodium.constantTimeEquals(tag, mac(text))
        else { return nil }
        return String(validating: text, as: UTF8.self)
    }

    private func mac(_ text: [UInt8]) -> [UInt8] {
        Array(Sodium.hmacSHA256(key: keys.current.bytes, Array("flash|".utf8) + text).prefix(16))
    }
}
