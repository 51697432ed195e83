import Synchronization

/// The site's absolute address, for every link Herald writes to be read elsewhere — feeds,
/// sitemaps, robots.txt, mail: `HERALD_BASE_URL`, or, only when Herald listens on a loopback
/// address without one (a developer's machine), the address it listens on, `http://HOST:PORT`.
/// Never a request's `Host`: a forged one would send subscribers, crawlers or a password-reset
/// link to another site, and a shared cache would keep it for everyone.
public final class SiteAddress: Sendable {
    /// `HERALD_BASE_URL`, without a trailing slash.
    public let configured: String?
    private let host: String
    private let port: Atomic<Int>

    init(configuration: Configuration) {
        configured = configuration.baseURL
        // An IPv6 address is bracketed in a URL.
        host = configuration.host.contains(":") ? "[\(configuration.host)]" : configuration.host
        port = Atomic(configuration.port)
    }

    /// The port the server was bound to (with `--port 0` it is known only once it listens).
    public func listening(on port: Int) {
        self.port.store(port, ordering: .releasing)
    }

    /// `https://news.example`, or `http://127.0.0.1:8080`: what absolute links start with.
    public var baseURL: String {
        configured ?? "http://\(host):\(port.load(ordering: .acquiring))"
    }

    /// Why `herald serve` must not start with `configuration`, or nil. Listening where others can
    /// reach it, or behind a proxy (`HERALD_TRUST_PROXY`), the listening address is not the one
    /// readers use, and a request's `Host` may not be trusted: the public address must be given.
    static func serveProblem(_ configuration: Configuration) -> String? {
        guard configuration.baseURL == nil else { return nil }
        let reason: String
        if configuration.trustForwardedProto {
            reason = "with HERALD_TRUST_PROXY set"
        } else if !LoopbackHost.contains(configuration.host) {
            reason = "listening on \(configuration.host), which is not a loopback address"
        } else {
            return nil
        }
        return """
            HERALD_BASE_URL is required \(reason): feeds, sitemaps, robots.txt and mail link to the \
            site's public address, and Herald never takes it from a request's Host header. Set it, \
            e.g. HERALD_BASE_URL=https://news.example.com
            """
    }
}
