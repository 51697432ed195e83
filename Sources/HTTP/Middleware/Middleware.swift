/// The rest of the chain after a middleware: call it to pass the request on.
public typealias Next<Context> = (Request, inout Context) throws -> Response

/// One step of request handling. Order in the chain is the order of protection.
public protocol Middleware<Context>: Sendable {
    associatedtype Context
    func handle(_ request: Request, context: inout Context, next: Next<Context>) throws -> Response
}

/// Throws the request's `rejection` (set by the server for malformed or oversized
/// requests) before anything else looks at it.
public struct RequestValidation<Context>: Middleware {
    public init() {}

    public func handle(_ request: Request, context: inout Context, next: Next<Context>) throws -> Response {
        if let rejection = request.rejection { throw rejection }
        return try next(request, &context)
    }
}
