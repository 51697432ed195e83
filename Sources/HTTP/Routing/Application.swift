/// What the server calls for every request.
public protocol Responder: Sendable {
    func respond(to request: Request) -> Response
    /// The pool a request must be answered on, when its route declared one (slow work such
    /// as password hashing); nil answers it on the server thread that received it.
    func workerPool(for request: Request) -> WorkerPool?
    /// The largest body the route answering `request` accepts, asked once its headers arrived and
    /// before any of its body is read (the request has no body yet); nil means the server's
    /// `maxBodyBytes`.
    func maxBodyBytes(for request: Request) -> Int?
    /// Who sends a body past the server's `maxBodyBytes` (on a route that allows one), for the
    /// large-body budget: the client it is counted against — each may hold only a share — or nil
    /// when the request may not send such a body at all; it is then held to the server's
    /// `maxBodyBytes` like any other route (413 before a byte is read). Asked with the head only.
    /// The server knows no accounts: the app says whom it trusts with that much memory.
    func largeBodyClient(for head: Request) -> String?
}

extension Responder {
    public func workerPool(for request: Request) -> WorkerPool? { nil }
    public func maxBodyBytes(for request: Request) -> Int? { nil }
    public func largeBodyClient(for head: Request) -> String? { head.remoteAddress }
}

/// A middleware chain in front of a router, as one `Responder`.
///
/// The chain is composed once at start-up into nested closures, so a request
/// pays one indirect call per middleware and nothing more.
public struct Application<Context>: Responder {
    private let router: Router<Context>
    private let makeContext: @Sendable (Request) -> Context
    private let entry: @Sendable (Request, inout Context) throws -> Response
    private let largeBodyClient: @Sendable (Request) -> String?

    /// `middleware` runs in the order given, outermost first, then the router. `largeBodyClient`
    /// answers `Responder.largeBodyClient(for:)`; without it, anyone may send a large body where a
    /// route allows one, counted by the socket's address.
    public init(
        middleware: [any Middleware<Context>], router: Router<Context>,
        largeBodyClient: @escaping @Sendable (Request) -> String? = { $0.remoteAddress },
        makeContext: @escaping @Sendable (Request) -> Context
    ) {
        self.makeContext = makeContext
        self.largeBodyClient = largeBodyClient
        self.router = router
        var entry: @Sendable (Request, inout Context) throws -> Response = { request, context in
            try router.dispatch(request, context: &context)
        }
        for step in middleware.reversed() {
            let inner = entry
            entry = { request, context in try step.handle(request, context: &context, next: inner) }
        }
        self.entry = entry
    }

    public func workerPool(for request: Request) -> WorkerPool? {
        request.rejection == nil ? router.workerPool(for: request) : nil
    }

    public func maxBodyBytes(for request: Request) -> Int? {
        request.rejection == nil ? router.maxBodyBytes(for: request) : nil
    }

    public func largeBodyClient(for head: Request) -> String? {
        largeBodyClient(head)
    }

    public func respond(to request: Request) -> Response {
        var context = makeContext(request)
        do {
            return try entry(request, &context)
        } catch {
            // Only reached when the chain has no ErrorPages middleware: never leak the error text.
            return .text("Internal Server Error", status: .internalServerError)
        }
    }
}
