/// Headers every response carries, error pages and static files included.
public struct SecurityHeaders<Context>: Middleware {
    /// Only this origin may supply anything; no framing; forms post only here.
    public static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }

    /// Set when the site is served over HTTPS (its public base URL says so).
    private let strictTransportSecurity: String?

    public init(strictTransportSecurity: String? = nil) {
        self.strictTransportSecurity = strictTransportSecurity
    }

    public func handle(_ request: Request, context: inout Context, next: Next<Context>) throws -> Response {
        var response = try next(request, &context)
        response.headers.add("X-Content-Type-Options", "nosniff")
        response.headers.add("Referrer-Policy", "same-origin")
        response.headers.add("Content-Security-Policy", Self.contentSecurityPolicy)
        // Pages carry per-visitor tokens and cookies: never stored by shared caches unless the
        // handler said otherwise (static files and the feed do).
        if !response.headers.contains("Cache-Control") { response.headers.add("Cache-Control", "no-store") }
        // For browsers too old for `frame-ancestors`.
        response.headers.add("X-Frame-Options", "DENY")
        if let strictTransportSecurity { response.headers.add("Strict-Transport-Security", strictTransportSecurity) }
        return response
    }
}
