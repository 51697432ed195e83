/// Headers every response carries, error pages and static files included.
public struct SecurityHeaders<Context>: Middleware {
    /// The app's policy, sent on every response.
    private let contentSecurityPolicy: String
    /// Set when the site is served over HTTPS (its public base URL says so).
    private let strictTransportSecurity: String?

    public init(contentSecurityPolicy: String, strictTransportSecurity: String? = nil) {
        self.contentSecurityPolicy = contentSecurityPolicy
        self.strictTransportSecurity = strictTransportSecurity
    }

    public func handle(_ request: Request, context: inout Context, next: Next<Context>) throws -> Response {
        var response = try next(request, &context)
        response.headers.add("X-Content-Type-Options", "nosniff")
        response.headers.add("Referrer-Policy", "same-origin")
        response.headers.add("Content-Security-Policy", contentSecurityPolicy)
        // Pages carry per-visitor tokens and cookies: never stored by shared caches unless the
        // handler said otherwise (static files and the feed do).
        if !response.headers.contains("Cache-Control") { response.headers.add("Cache-Control", "no-store") }
        // For browsers too old for `frame-ancestors`.
        response.headers.add("X-Frame-Options", "DENY")
        if let strictTransportSecurity { response.headers.add("Strict-Transport-Security", strictTransportSecurity) }
        return response
    }
}
