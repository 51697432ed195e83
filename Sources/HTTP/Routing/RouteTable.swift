/// The routes' methods, patterns and options, in the order they were added: what `Router` matches
/// a request against. Patterns are segments: literals, `:name` parameters (one segment each) and
/// a trailing `*name` that takes the rest of the path.
struct RouteTable: Sendable {
    enum Segment: Sendable, Equatable {
        case literal(String)
        case parameter(String)
        case rest(String)
    }

    struct Route: Sendable {
        /// As declared (`/articles/:slug`): what metrics name it by.
        let pattern: String
        let method: HTTPMethod
        let segments: [Segment]
        let pool: WorkerPool?
        let maxBodyBytes: Int?
    }

    /// What answers a request: a route (its index, and the path's parameters), or why none does.
    enum Resolution {
        case found(Int, parameters: [String: String])
        case notFound
        /// The path exists under these other methods.
        case methodNotAllowed([HTTPMethod])
    }

    private(set) var routes: [Route] = []
    /// Whether any route declared a pool: if none did, no request needs to be matched for one.
    private var anyPool = false

    mutating func add(_ method: HTTPMethod, _ pattern: String, pool: WorkerPool?, maxBodyBytes: Int?) {
        let segments: [Segment] = pattern.split(separator: "/", omittingEmptySubsequences: true).map { piece in
            if piece.hasPrefix(":") { return .parameter(String(piece.dropFirst())) }
            if piece.hasPrefix("*") { return .rest(String(piece.dropFirst())) }
            return .literal(String(piece))
        }
        routes.append(
            Route(pattern: pattern, method: method, segments: segments, pool: pool, maxBodyBytes: maxBodyBytes))
        anyPool = anyPool || pool != nil
    }

    /// Asked for every request, so only the few routes that declared a pool are looked at.
    func workerPool(for request: Request) -> WorkerPool? {
        guard anyPool else { return nil }
        for route in routes where route.pool != nil && route.method == request.method {
            if Self.fits(route.segments, request.pathSegments) { return route.pool }
        }
        return nil
    }

    func maxBodyBytes(for request: Request) -> Int? {
        for route in routes where route.method == request.method {
            if Self.fits(route.segments, request.pathSegments) { return route.maxBodyBytes }
        }
        return nil
    }

    func pattern(for request: Request) -> String {
        for route in routes where route.method == request.method || (request.method == .head && route.method == .get) {
            if Self.fits(route.segments, request.pathSegments) { return route.pattern }
        }
        return "unmatched"
    }

    /// The first route whose path and method match (HEAD falls back to GET).
    func resolve(_ request: Request) -> Resolution {
        var allowed: [HTTPMethod] = []
        for (index, route) in routes.enumerated() {
            guard Self.fits(route.segments, request.pathSegments) else { continue }
            if route.method == request.method || (request.method == .head && route.method == .get) {
                return .found(index, parameters: Self.parameters(route.segments, request.pathSegments))
            }
            if !allowed.contains(route.method) { allowed.append(route.method) }
        }
        return allowed.isEmpty ? .notFound : .methodNotAllowed(allowed)
    }

    /// Whether the path matches the pattern: its length, its literals, and no empty parameter.
    static func fits(_ pattern: [Segment], _ path: [String]) -> Bool {
        if case .rest = pattern.last {
            guard path.count >= pattern.count else { return false }
        } else if path.count != pattern.count {
            return false
        }
        for (index, segment) in pattern.enumerated() {
            switch segment {
            case .literal(let literal): if path[index] != literal { return false }
            case .parameter: if path[index].isEmpty { return false }
            case .rest: break
            }
        }
        return true
    }

    /// The parameters of a path that `fits` the pattern.
    private static func parameters(_ pattern: [Segment], _ path: [String]) -> [String: String] {
        var parameters: [String: String] = [:]
        for (index, segment) in pattern.enumerated() {
            switch segment {
            case .literal: break
            case .parameter(let name): parameters[name] = path[index]
            case .rest(let name): parameters[name] = path[index...].joined(separator: "/")
            }
        }
        return parameters
    }
}
