/// Handles one routed request. Every handler has this one shape.
public typealias Handler<Context> = @Sendable (Request, inout Context) throws -> Response

/// Maps method + path pattern to a handler.
///
/// Patterns are segments: literals, `:name` parameters (one segment each) and a
/// trailing `*name` that takes the rest of the path. HEAD falls back to GET
/// (the server sends no body for HEAD); a path that exists under another
/// method answers 405 with `Allow`; anything else is 404.
public struct Router<Context>: Sendable {
    private enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case rest(String)
    }

    private struct Route: Sendable {
        /// As declared (`/articles/:slug`): what metrics name it by.
        let pattern: String
        let method: HTTPMethod
        let segments: [Segment]
        let handler: Handler<Context>
        let pool: WorkerPool?
        let maxBodyBytes: Int?
    }

    private var routes: [Route] = []

    public init() {}

    /// Adds a route. With `pool`, the whole request (middleware included) is answered on
    /// that pool's threads while the connection waits, suspended. With `maxBodyBytes`, the route's
    /// requests may carry a body up to that size instead of the server's `maxBodyBytes`; the
    /// server asks before reading any of it (see `Responder.maxBodyBytes(for:)`).
    public mutating func add(
        _ method: HTTPMethod, _ pattern: String, on pool: WorkerPool? = nil, maxBodyBytes: Int? = nil,
        _ handler: @escaping Handler<Context>
    ) {
        let segments: [Segment] = pattern.split(separator: "/", omittingEmptySubsequences: true).map { piece in
            if piece.hasPrefix(":") { return .parameter(String(piece.dropFirst())) }
            if piece.hasPrefix("*") { return .rest(String(piece.dropFirst())) }
            return .literal(String(piece))
        }
        routes.append(
            Route(
                pattern: pattern, method: method, segments: segments, handler: handler, pool: pool,
                maxBodyBytes: maxBodyBytes))
    }

    public mutating func get(_ pattern: String, _ handler: @escaping Handler<Context>) {
        add(.get, pattern, handler)
    }

    public mutating func post(
        _ pattern: String, on pool: WorkerPool? = nil, maxBodyBytes: Int? = nil, _ handler: @escaping Handler<Context>
    ) {
        add(.post, pattern, on: pool, maxBodyBytes: maxBodyBytes, handler)
    }

    /// The pool of the route that would answer `request`, if it declared one. Asked for every
    /// request, so only the few routes that declared a pool are looked at.
    public func workerPool(for request: Request) -> WorkerPool? {
        for route in routes where route.pool != nil && route.method == request.method {
            if Self.match(route.segments, request.pathSegments) != nil { return route.pool }
        }
        return nil
    }

    /// The body limit declared by the route that would answer `request` (the first route matching
    /// its method and path, as `dispatch` picks it), or nil for the server's own limit.
    public func maxBodyBytes(for request: Request) -> Int? {
        for route in routes where route.method == request.method {
            if Self.match(route.segments, request.pathSegments) != nil { return route.maxBodyBytes }
        }
        return nil
    }

    /// Every route's pattern, in the order they were added (duplicates for GET and POST kept).
    public var patterns: [String] { routes.map(\.pattern) }

    /// The pattern of the route that would answer `request` (`"unmatched"` when none would): a
    /// bounded label for metrics, never the path a client sent.
    public func pattern(for request: Request) -> String {
        for route in routes where route.method == request.method || (request.method == .head && route.method == .get) {
            if Self.match(route.segments, request.pathSegments) != nil { return route.pattern }
        }
        return "unmatched"
    }

    /// Finds the handler for `request` and fills in its route parameters.
    public func dispatch(_ request: Request, context: inout Context) throws -> Response {
        var request = request
        var allowed: [HTTPMethod] = []
        for route in routes {
            guard let parameters = Self.match(route.segments, request.pathSegments) else { continue }
            if route.method == request.method || (request.method == .head && route.method == .get) {
                request.parameters = parameters
                return try route.handler(request, &context)
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        guard !allowed.isEmpty else {
            throw HTTPError(.notFound, "There is no page at this address.")
        }
        if allowed.contains(.get) && !allowed.contains(.head) { allowed.append(.head) }
        var headers = HTTPHeaders()
        headers.add("Allow", allowed.map(\.rawValue).joined(separator: ", "))
        throw HTTPError(.methodNotAllowed, "This address does not accept \(request.method) requests.", headers: headers)
    }

    private static func match(_ pattern: [Segment], _ path: [String]) -> [String: String]? {
        // Every request is tried against many routes: rule most out before building anything.
        guard fits(pattern, path) else { return nil }
        var parameters: [String: String] = [:]
        for (index, segment) in pattern.enumerated() {
            switch segment {
            case .rest(let name):
                parameters[name] = path[index...].joined(separator: "/")
                return index < path.count ? parameters : nil
            case .literal(let literal):
                guard index < path.count, path[index] == literal else { return nil }
            case .parameter(let name):
                guard index < path.count, !path[index].isEmpty else { return nil }
                parameters[name] = path[index]
            }
        }
        return pattern.count == path.count ? parameters : nil
    }

    /// Whether the path has the pattern's length and literals (what `match` then fills in).
    private static func fits(_ pattern: [Segment], _ path: [String]) -> Bool {
        if case .rest = pattern.last {
            guard path.count >= pattern.count else { return false }
        } else if path.count != pattern.count {
            return false
        }
        for (index, segment) in pattern.enumerated() {
            if case .literal(let literal) = segment, path[index] != literal { return false }
        }
        return true
    }
}
