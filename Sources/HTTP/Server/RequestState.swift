import TextSupport

/// What the server knows about one request while libmicrohttpd feeds it in.
///
/// Created when the request line arrives, owned by libmicrohttpd's per-request
/// pointer, released when the request completes. One connection is served by
/// one thread at a time, so no locking is needed.
final class RequestState: @unchecked Sendable {
    let target: String
    let startedAt = monotonicMicroseconds()
    var method = HTTPMethod.get
    var headers = HTTPHeaders()
    var remoteAddress = ""
    var body: [UInt8] = []
    /// The request without its body, when it was built to ask for the route's body limit: the
    /// full request is made from it, so the target and cookies are parsed once.
    var head: Request?
    /// Set once the headers were read and checked (the first access-handler call).
    var headersChecked = false
    /// The body went past the cap while streaming in (chunked bodies declare no length).
    var bodyTooLarge = false
    /// The body limit for this request: its route's, else the server's.
    var maxBodyBytes = 0
    /// Bytes reserved from the server's `LargeBodyBudget`, given back when the request completes.
    var reservedBodyBytes = 0
    /// The client they were reserved for (`Responder.largeBodyClient(for:)`).
    var reservedBodyClient = ""
    /// The answer computed on a worker pool while the connection was suspended.
    var deferredResponse: Response?

    init(target: String) {
        self.target = target
    }
}
