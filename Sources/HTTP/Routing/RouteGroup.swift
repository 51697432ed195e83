/// Decides, before a route's handler runs, whether the request may reach it: nil lets it through;
/// a response answers instead (a redirect to log in); a thrown `HTTPError` refuses it (403).
public typealias RouteGuard<Context> = @Sendable (Request, inout Context) throws -> Response?

/// Routes added under one path prefix and one guard: `router.group("/editor", requires: editors)`.
/// Who may reach a page is then said once, where its routes are declared, not in each handler.
public struct RouteGroup<Context>: Sendable {
    fileprivate var router: Router<Context>
    let prefix: String
    let guardian: RouteGuard<Context>

    /// `path` is relative to the prefix ("" is the prefix itself).
    public mutating func get(_ path: String, _ handler: @escaping Handler<Context>) {
        router.add(.get, prefix + path, guarded(handler))
    }

    public mutating func post(_ path: String, _ handler: @escaping Handler<Context>) {
        router.add(.post, prefix + path, guarded(handler))
    }

    private func guarded(_ handler: @escaping Handler<Context>) -> Handler<Context> {
        { [guardian] request, context in
            if let answer = try guardian(request, &context) { return answer }
            return try handler(request, &context)
        }
    }
}

extension Router {
    /// Adds the routes `add` declares, each under `prefix` and behind `guardian`.
    public mutating func group(
        _ prefix: String, requires guardian: @escaping RouteGuard<Context>, _ add: (inout RouteGroup<Context>) -> Void
    ) {
        var group = RouteGroup(router: self, prefix: prefix, guardian: guardian)
        add(&group)
        self = group.router
    }
}
