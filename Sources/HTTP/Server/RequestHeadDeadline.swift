// Only for `SHUT_RDWR`: in a whole-module (release) build the constant is found through the
// module whose header included <sys/socket.h> first, which is libmicrohttpd's.
internal import CMicroHTTPD
import Foundation
import Synchronization
import TextSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Cuts off connections whose request line and headers do not arrive in time.
///
/// libmicrohttpd has no such limit: its idle timeout restarts with every byte, so a client that
/// sends one header line every few seconds holds a connection for ever. The server reports here
/// where each connection is in its request; one sweeper thread shuts down the socket of any
/// connection whose head is overdue, and libmicrohttpd, reading the end of the stream, closes and
/// frees the connection itself, on its own thread (we never touch its connection objects).
///
/// When the clock runs:
/// - On a new connection, from when it is accepted: a client connects to send a request.
/// - On a kept-alive connection, from the first byte of the next request, not from the previous
///   response: between requests a connection may rightly sit idle, and the idle timeout governs
///   it exactly as before. libmicrohttpd does not report that first byte, so the sweeper asks the
///   kernel when data last arrived (`TCP_INFO`); the request line starts the clock too, in case
///   it came between two sweeps.
/// - Never once the headers are complete: a body is governed by the body deadline, and a
///   connection suspended while the hashing pool works is not ours to cut.
///
/// Descriptors: an entry is keyed by the connection's socket and removed when libmicrohttpd
/// reports the connection closed, which it does before it closes the socket, under the lock the
/// sweeper holds while it calls `shutdown`. So a socket closed and reused by another connection
/// can never be shut down by mistake.
final class RequestHeadDeadline: Sendable {
    enum Phase: Equatable {
        /// The request line and headers are arriving; cut off at `since` + the deadline.
        case head(since: Int64)
        /// Kept alive after a response; the next request has not visibly started.
        case betweenRequests(since: Int64)
        /// Body, handler, hashing pool or response: left to the other limits.
        case headComplete
        /// Shut down by the sweeper; libmicrohttpd has yet to notice and close it.
        case cutOff
    }

    /// Data the kernel saw within this long after a response is not taken as the next request
    /// (`TCP_INFO` counts in jiffies; pipelined bytes may land just before the response ends).
    /// A request that did start then is caught by its request line or its next byte.
    static let arrivalToleranceMicroseconds: Int64 = 50_000

    let deadlineMicroseconds: Int64
    let sweepIntervalMicroseconds: Int64
    private let phases = Mutex<[Int32: Phase]>([:])
    private let stopped = Atomic<Bool>(false)

    init(seconds: Int) {
        deadlineMicroseconds = Int64(seconds) * 1_000_000
        // About once a second; more often for the short deadlines tests use.
        sweepIntervalMicroseconds = min(1_000_000, max(100_000, deadlineMicroseconds / 4))
    }

    // MARK: What the server reports (from libmicrohttpd's callbacks, on its threads)

    func connectionOpened(_ socket: Int32, now: Int64 = monotonicMicroseconds()) {
        guard !stopped.load(ordering: .acquiring) else { return }
        phases.withLock { $0[socket] = .head(since: now) }
    }

    /// The request line is complete: a request is under way even if no sweep has seen its bytes.
    func requestLineArrived(_ socket: Int32, now: Int64 = monotonicMicroseconds()) {
        phases.withLock { phases in
            if case .betweenRequests = phases[socket] { phases[socket] = .head(since: now) }
        }
    }

    func headersComplete(_ socket: Int32) {
        phases.withLock { phases in
            if phases[socket] != nil && phases[socket] != .cutOff { phases[socket] = .headComplete }
        }
    }

    /// The response was sent (or the request ended); the connection may be kept alive.
    func requestCompleted(_ socket: Int32, now: Int64 = monotonicMicroseconds()) {
        phases.withLock { phases in
            if phases[socket] != nil && phases[socket] != .cutOff { phases[socket] = .betweenRequests(since: now) }
        }
    }

    /// Must be called before the socket is closed (libmicrohttpd's "closed" notification is).
    func connectionClosed(_ socket: Int32) {
        _ = phases.withLock { $0.removeValue(forKey: socket) }
    }

    func phase(of socket: Int32) -> Phase? {
        phases.withLock { $0[socket] }
    }

    // MARK: The sweeper

    /// Starts the sweeper thread; `onCut` hears how many connections each sweep cut off.
    func start(onCut: @escaping @Sendable (Int) -> Void) {
        let thread = Thread { [self] in
            while !stopped.load(ordering: .acquiring) {
                usleep(UInt32(sweepIntervalMicroseconds))
                let cut = sweep(now: monotonicMicroseconds())
                if cut > 0 { onCut(cut) }
            }
        }
        thread.name = "http-head-deadline"
        thread.start()
    }

    /// Forgets every connection, under the lock, so that a sweep still running finds nothing to
    /// shut down; the thread ends within one interval.
    func stop() {
        stopped.store(true, ordering: .releasing)
        phases.withLock { $0.removeAll() }
    }

    /// Shuts down every connection whose head is overdue; returns how many.
    func sweep(now: Int64) -> Int {
        phases.withLock { phases in
            var changes: [(Int32, Phase)] = []
            for (socket, phase) in phases {
                let started: Int64
                switch phase {
                case .head(let since):
                    started = since
                case .betweenRequests(let since):
                    guard let arrival = Self.lastDataArrival(socket, now: now),
                        arrival > since + Self.arrivalToleranceMicroseconds
                    else { continue }
                    started = arrival
                    changes.append((socket, .head(since: arrival)))
                case .headComplete, .cutOff:
                    continue
                }
                if now - started > deadlineMicroseconds {
                    // Under the lock: the socket is still this connection's (see the type's comment).
                    // libmicrohttpd's next read sees the end of the stream and closes the connection.
                    _ = shutdown(socket, Int32(SHUT_RDWR))
                    changes.append((socket, .cutOff))
                }
            }
            for (socket, phase) in changes { phases[socket] = phase }
            return changes.count { $0.1 == .cutOff }
        }
    }

    /// When the kernel last received data on `socket`, on the `monotonicMicroseconds` clock.
    private static func lastDataArrival(_ socket: Int32, now: Int64) -> Int64? {
        var info = tcp_info()
        var length = socklen_t(MemoryLayout<tcp_info>.size)
        guard getsockopt(socket, Int32(IPPROTO_TCP), TCP_INFO, &info, &length) == 0 else { return nil }
        return now - Int64(info.tcpi_last_data_recv) * 1000
    }
}
