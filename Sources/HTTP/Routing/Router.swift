/// Handles one routed request. Every handler has this one shape.
public typealias Handler<Context> = @Sendable (Request, inout Context) throws -> Response

/// Maps method + path pattern to a handler.
///
/// Patterns are segments: literals, `:name` parameters (one segment each) and a
/// trailing `*name` that takes the rest of the path. HEAD falls back to GET
/// (the server sends no body for HEAD); a path that exists under another
/// method answers 405 with `Allow`; anything else is 404.
public struct Router<Context>: Sendable {
    /// Everything about the routes but their handlers. Not generic: the server asks it about each
    /// request (body limit, pool) from code that is not specialized for `Context`, where a generic
    /// route list cost runtime type lookups on every route tried (measured: 8 % of a POST).
    private var table = RouteTable()
    /// `handlers[i]` answers `table.routes[i]`.
    private var handlers: [Handler<Context>] = []

    public init() {}

    /// Adds a route. With `pool`, the whole request (middleware included) is answered on
    /// that pool's threads while the connection waits, suspended. With `maxBodyBytes`, the route's
    /// requests may carry a body up to that size instead of the server's `maxBodyBytes`; the
    /// server asks before reading any of it (see `Responder.maxBodyBytes(for:)`).
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, on pool: WorkerPool? = nil, maxBodyBytes: Int? = nil,
        _ handler: @escaping Handler<Context>
    ) {
        table.add(method, pattern, pool: pool, maxBodyBytes: maxBodyBytes)
        handlers.append(handler)
    }

    public mutating func get(_ pattern: String, _ handler: @escaping Handler<Context>) {
        add(.get, pattern, handler)
    }

    public mutating func post(
        _ pattern: String, on pool: WorkerPool? = nil, maxBodyBytes: Int? = nil, _ handler: @escaping Handler<Context>
    ) {
        add(.post, pattern, on: pool, maxBodyBytes: maxBodyBytes, handler)
    }

    /// The pool of the route that would answer `request`, if it declared one.
    public func workerPool(for request: Request) -> WorkerPool? { table.workerPool(for: request) }

    /// The body limit declared by the route that would answer `request` (the first route matching
    /// its method and path, as `dispatch` picks it), or nil for the server's own limit.
    public func maxBodyBytes(for request: Request) -> Int? { table.maxBodyBytes(for: request) }

    /// Every route's pattern, in the order they were added (duplicates for GET and POST kept).
    public var patterns: [String] { table.routes.map(\.pattern) }

    /// Every route's method and pattern, in the order they were added.
    public var routes: [(method: HTTPMethod, pattern: String)] { table.routes.map { ($0.method, $0.pattern) } }

    /// The pattern of the route that would answer `request` (`"unmatched"` when none would): a
    /// bounded label for metrics, never the path a client sent.
    public func pattern(for request: Request) -> String { table.pattern(for: request) }

    /// Finds the handler for `request` and fills in its route parameters.
    public func dispatch(_ request: Request, context: inout Context) throws -> Response {
        switch table.resolve(request) {
        case .found(let index, let parameters):
            var request = request
            request.parameters = parameters
            return try handlers[index](request, &context)
        case .notFound:
            throw HTTPError(.notFound, "There is no page at this address.")
        case .methodNotAllowed(var allowed):
            if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
            var headers = HTTPHeaders()
            headers.add("Allow", allowed.map(\.rawValue).joined(separator: ", "))
            throw HTTPError(
                .methodNotAllowed, "This address does not accept \(request.method) requests.", headers: headers)
        }
    }
}
