internal import CMicroHTTPD
import Synchronization
import TextSupport

#if canImport(Glibc)
    import Glibc
#endif

public struct ServerError: Error, CustomStringConvertible {
    public let description: String
}

/// The HTTP server: libmicrohttpd in its internal thread-pool epoll mode, calling
/// a `Responder` synchronously on its worker threads.
///
/// All C interaction lives in this file and `HTTPServer+Callbacks.swift`; the
/// rest of Herald sees `Request` and `Response` values only.
public final class HTTPServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    let responder: any Responder
    let log: Logger
    let libraryLog: RateLimitedLog

    private var daemon: OpaquePointer?
    private var listenSocket: Int32 = -1
    /// Requests between their request line and completion; shutdown waits for them.
    let requestsInFlight = Atomic<Int>(0)
    /// Cuts off connections whose request head is overdue; nil when the deadline is 0.
    let headDeadline: RequestHeadDeadline?
    /// The memory that bodies above `maxBodyBytes` may hold at once.
    let largeBodies: LargeBodyBudget
    /// The port actually bound (useful with port 0).
    public private(set) var port = 0

    public init(configuration: ServerConfiguration, responder: any Responder, log: Logger) {
        self.configuration = configuration
        self.responder = responder
        self.log = log
        self.libraryLog = RateLimitedLog(log: log, linesPerSecond: 5)
        self.largeBodies = LargeBodyBudget(limit: configuration.largeBodyBudgetBytes)
        self.headDeadline =
            configuration.requestHeadDeadlineSeconds > 0
            ? RequestHeadDeadline(seconds: configuration.requestHeadDeadlineSeconds) : nil
    }

    deinit {
        if daemon != nil { stopDaemon() }
    }

    /// Binds the socket and starts the worker threads.
    public func start() throws {
        raiseFileDescriptorLimit()
        listenSocket = try ListeningSocket.bind(host: configuration.host, port: configuration.port)
        port = ListeningSocket.boundPort(listenSocket)

        // MHD_USE_ITC lets MHD_quiesce_daemon wake the pool threads at shutdown; suspend/resume
        // lets slow routes (password hashing) be answered on a worker pool.
        let flags =
            MHD_USE_EPOLL_INTERNAL_THREAD.rawValue | MHD_USE_ERROR_LOG.rawValue | MHD_USE_ITC.rawValue
            | MHD_ALLOW_SUSPEND_RESUME.rawValue
        let me = Unmanaged.passUnretained(self).toOpaque()
        // The logger goes first: libmicrohttpd prints anything before it to stderr itself.
        let options: [CVarArg] = [
            MHD_OPTION.EXTERNAL_LOGGER.rawValue, unsafeBitCast(libraryMessage, to: OpaquePointer.self),
            OpaquePointer(me),
            MHD_OPTION.LISTEN_SOCKET.rawValue, listenSocket,
            MHD_OPTION.THREAD_POOL_SIZE.rawValue, UInt32(configuration.threads),
            MHD_OPTION.CONNECTION_LIMIT.rawValue, UInt32(configuration.connectionLimit),
            // 0 is libmicrohttpd's "no limit" too. Counted across the whole pool.
            MHD_OPTION.PER_IP_CONNECTION_LIMIT.rawValue, UInt32(max(0, configuration.connectionsPerAddressLimit)),
            MHD_OPTION.CONNECTION_TIMEOUT.rawValue, UInt32(configuration.idleTimeoutSeconds),
            MHD_OPTION.CONNECTION_MEMORY_LIMIT.rawValue, configuration.connectionMemoryBytes,
            MHD_OPTION.URI_LOG_CALLBACK.rawValue, unsafeBitCast(requestStarted, to: OpaquePointer.self),
            OpaquePointer(me),
            MHD_OPTION.NOTIFY_COMPLETED.rawValue, unsafeBitCast(requestCompleted, to: OpaquePointer.self),
            OpaquePointer(me),
            MHD_OPTION.NOTIFY_CONNECTION.rawValue, unsafeBitCast(connectionNotified, to: OpaquePointer.self),
            OpaquePointer(me),
            MHD_OPTION.END.rawValue,
        ]
        daemon = withVaList(options) { arguments in
            MHD_start_daemon_va(flags, 0, nil, nil, accessHandler, me, arguments)
        }
        guard daemon != nil else {
            close(listenSocket)
            throw ServerError(description: "libmicrohttpd could not start on \(configuration.host):\(port)")
        }
        if let headDeadline {
            let log = self.log
            let seconds = configuration.requestHeadDeadlineSeconds
            // At most one line per sweep (about a second), however many connections it cut.
            headDeadline.start { cut in
                log.warning("cut off \(cut) connection(s): request headers still arriving after \(seconds) s")
            }
        }
    }

    /// Stops accepting, lets requests in flight finish (up to the grace period), then stops.
    public func shutdown() {
        guard let daemon else { return }
        // With nothing in flight there is nothing to drain: stop at once (libmicrohttpd closes the
        // listening socket). Quiescing an epoll thread pool races inside libmicrohttpd 0.9.75: the
        // quiescing thread and a worker that is awake both take the listening socket out of the
        // worker's epoll set, and the worker that loses aborts the process ("Failed to remove
        // listen FD from epoll set"). Only a shutdown with requests still running pays that risk.
        if requestsInFlight.load(ordering: .acquiring) == 0 {
            stopDaemon()
            return
        }
        let socket = MHD_quiesce_daemon(daemon)
        // Stop listening now (new connections are refused), but close the descriptor only after
        // MHD_stop_daemon: libmicrohttpd's worker threads may still take it out of their epoll
        // sets, and a closed (or reused) number there makes libmicrohttpd abort the process.
        if socket >= 0 { _ = Glibc.shutdown(socket, Int32(SHUT_RDWR)) }
        defer { if socket >= 0 { close(socket) } }
        let deadline = monotonicMicroseconds() + Int64(configuration.shutdownGraceSeconds) * 1_000_000
        while requestsInFlight.load(ordering: .acquiring) > 0 && monotonicMicroseconds() < deadline {
            usleep(5_000)
        }
        let unfinished = requestsInFlight.load(ordering: .acquiring)
        if unfinished > 0 { log.warning("shutdown: \(unfinished) request(s) still running after the grace period") }
        stopDaemon()
    }

    private func stopDaemon() {
        // First: once libmicrohttpd starts closing sockets, no sweep may touch a descriptor number.
        headDeadline?.stop()
        MHD_stop_daemon(daemon)
        daemon = nil
    }

    /// Idle keep-alive connections each hold a descriptor; the default soft limit (1024) is too low.
    private func raiseFileDescriptorLimit() {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_cur < limit.rlim_max else { return }
        limit.rlim_cur = limit.rlim_max
        _ = setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }
}
