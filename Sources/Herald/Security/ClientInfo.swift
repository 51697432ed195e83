import HTTP
import TextSupport

/// Who is really on the other end: behind a TLS proxy Herald is told to trust, the client's
/// address is the last `X-Forwarded-For` entry (the one the proxy added) and HTTPS is what
/// `X-Forwarded-Proto` says; a public `https://` base URL means HTTPS too. Without a trusted
/// proxy those headers are ignored, since any client can send them.
struct ClientInfo: Middleware {
    let trustProxy: Bool
    let servedOverHTTPS: Bool

    func handle(_ request: Request, context: inout RequestContext, next: Next<RequestContext>) throws -> Response {
        context.clientAddress = Self.clientAddress(of: request, trustProxy: trustProxy)
        context.requestTarget = request.target
        context.isSecure = servedOverHTTPS
        if trustProxy && request.headers["X-Forwarded-Proto"]?.lowercased() == "https" { context.isSecure = true }
        return try next(request, &context)
    }

    /// The socket's address, or behind a trusted proxy the last `X-Forwarded-For` entry.
    static func clientAddress(of request: Request, trustProxy: Bool) -> String {
        if trustProxy, let forwarded = request.headers.values(for: "X-Forwarded-For").last,
            let last = forwarded.split(separator: ",").last
        {
            let address = last.trimmingASCIIWhitespace()
            if !address.isEmpty && address.utf8.count <= 64 { return String(address) }
        }
        return request.remoteAddress
    }
}
