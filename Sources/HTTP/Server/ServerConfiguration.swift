#if canImport(Glibc)
    import Glibc
#endif

/// How the HTTP server listens and what it tolerates from clients.
public struct ServerConfiguration: Sendable {
    public var host = "127.0.0.1"
    /// 0 picks a free port; `HTTPServer.port` tells which.
    public var port = 8080
    /// libmicrohttpd worker threads, each with its own epoll loop.
    public var threads = max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
    /// Largest request body accepted; a larger declared body is refused with 413 before it is read.
    public var maxBodyBytes = 64 * 1024
    /// Bytes that bodies above `maxBodyBytes` (on routes that allow more) may hold at once, across
    /// all connections; a request that would go past it is answered 503 before its body is read.
    public var largeBodyBudgetBytes = 64 << 20
    /// Per-connection buffer for the request line and headers (libmicrohttpd answers 431/414 past it).
    public var connectionMemoryBytes = 16 * 1024
    /// Connections open at once, across all threads.
    public var connectionLimit = 4000
    /// Connections open at once from one client address (0: no limit). Behind a proxy every
    /// connection comes from the proxy, so a limit there would starve everyone: Herald turns it
    /// off by default when it trusts a proxy.
    public var connectionsPerAddressLimit = 64
    /// An idle connection (no bytes either way) is closed after this many seconds.
    public var idleTimeoutSeconds = 15
    /// A request whose body is still arriving after this many seconds is cut off.
    public var requestDeadlineSeconds = 20
    /// A body larger than `maxBodyBytes` (an upload, on a route that allows one) gets more time:
    /// one more second for each this many bytes it declares, so a 6 MB image over a slow uplink
    /// (~0.5 Mbit/s) still arrives, while a client trickling bytes is still cut off.
    public var uploadBytesPerExtraSecond = 64 * 1024
    /// A request whose request line and headers are not complete this many seconds after they
    /// began is cut off, its connection closed (0: no limit). `RequestHeadDeadline` says when the
    /// clock starts; without this, a client sending a header line now and then holds a connection
    /// for ever, since the idle timeout restarts with every byte.
    public var requestHeadDeadlineSeconds = 10
    /// On SIGINT/SIGTERM, how long in-flight requests get to finish.
    public var shutdownGraceSeconds = 10

    public init() {}
}
