/// Herald's Content-Security-Policy, sent on every response: only this origin may supply
/// anything (scripts and styles included), no framing, forms post only here.
enum ContentSecurityPolicy {
    static let herald =
        "default-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
}
