import HTTP

/// Turns store failures into the right answer: a busy, locked, full or read-only
/// database is a temporary outage (503 with `Retry-After`), not a crash and not a 500.
struct StoreFailures: Middleware {
    let log: Logger

    func handle(_ request: Request, context: inout RequestContext, next: Next<RequestContext>) throws -> Response {
        do {
            return try next(request, &context)
        } catch let error as StoreError {
            switch error {
            case .busy, .unavailable:
                log.warning("\(request.method) \(request.path): \(error)")
                throw HTTPError.serviceUnavailable(
                    retryAfter: 5, "The site is busy or under maintenance. Please try again in a few seconds.")
            case .constraint, .failed:
                throw error
            }
        }
    }
}
