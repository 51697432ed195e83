/// Headers every response carries, error pages and static files included.
public struct SecurityHeaders<Context>: Middleware {
    /// Only this origin may supply anything; no framing; forms post only here.
    public static var contentSecurityPolicy: String {
        "default-src 'self'; img-src 'self' data:; form-action 'self'; base-uri 'none'; frame-ancestors 'none'"
    }

    public init() {}

    public func handle(_ request: Request, context: inout Context, next: Next<Context>) throws -> Response {
        var response = try next(request, &context)
        response.headers.add("X-Content-Type-Options", "nosniff")
        response.headers.add("Referrer-Policy", "same-origin")
        response.headers.add("Content-Security-Policy", Self.contentSecurityPolicy)
        return response
    }
}
