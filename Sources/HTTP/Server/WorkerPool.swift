import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A small, bounded pool of threads for slow work (argon2id password hashing) that
/// must not run on the threads that serve pages.
///
/// Bounded twice: `threads` jobs run at once, and at most `queueLimit` wait. When the
/// queue is full `submit` refuses at once, so a burst is answered with 503 instead of
/// piling up memory-hungry jobs.
public final class WorkerPool: @unchecked Sendable {
    public let name: String
    public let threads: Int
    public let queueLimit: Int
    /// What a request refused because the queue is full is told (503), in the app's words.
    public let busyMessage: String
    /// Guards `waiting`; threads sleep on it while there is nothing to do.
    private let condition = NSCondition()
    private var waiting: [@Sendable () -> Void] = []
    /// Places promised by `reserve()` but not yet filled by `run(_:)`.
    private var reserved = 0
    private var refusals = 0

    /// `niceness` lowers the pool threads' scheduling priority (Linux `nice`, 0–19), so that on a
    /// busy machine the threads serving pages run first and slow work waits.
    public init(
        name: String, threads: Int, queueLimit: Int, niceness: Int32 = 0,
        busyMessage: String = "The server is busy. Please try again in a moment."
    ) {
        self.name = name
        self.busyMessage = busyMessage
        self.threads = max(1, threads)
        self.queueLimit = max(0, queueLimit)
        for index in 0..<self.threads {
            let thread = Thread { [self] in
                if niceness > 0 {
                    // On Linux, nice is per thread, and `who` 0 means the calling thread: this one only.
                    _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
                }
                run()
            }
            thread.name = "\(name)-\(index)"
            thread.start()
        }
    }

    /// Queues `work`; false when `queueLimit` jobs are already waiting (the caller answers 503).
    public func submit(_ work: @escaping @Sendable () -> Void) -> Bool {
        guard reserve() else { return false }
        run(work)
        return true
    }

    /// Promises a place in the queue, so a caller can prepare (suspend a connection) knowing
    /// that the following `run(_:)` cannot be refused. False when the queue is full.
    public func reserve() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard waiting.count + reserved < queueLimit else {
            refusals += 1
            return false
        }
        reserved += 1
        return true
    }

    /// Jobs waiting for a thread, and how many were refused (queue full) since start.
    public var load: (queued: Int, refused: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (waiting.count + reserved, refusals)
    }

    /// Queues `work` in a place taken by `reserve()`.
    public func run(_ work: @escaping @Sendable () -> Void) {
        condition.lock()
        defer { condition.unlock() }
        reserved = max(0, reserved - 1)
        waiting.append(work)
        condition.signal()
    }

    /// Runs `work` on one of the pool's threads and waits for its result: for a step of a request
    /// answered on another pool that belongs on these threads (work resumed after a login, which
    /// must not run at the hashing pool's low priority). When the queue is full it runs on the
    /// calling thread instead: the caller is already answering, and refusing now would lose it.
    public func perform<T>(_ work: @escaping () throws -> T) throws -> T {
        let handoff = Handoff(work)
        guard submit({ handoff.run() }) else { return try work() }
        return try handoff.result()
    }

    private func run() {
        while true {
            condition.lock()
            while waiting.isEmpty { condition.wait() }
            let job = waiting.removeFirst()
            condition.unlock()
            job()
        }
    }
}

/// One `perform` call's work and result, passed to a pool thread and back. The caller waits on
/// `done` until the pool thread has stored the result, so the two never touch it at once.
private final class Handoff<T>: @unchecked Sendable {
    private let work: () throws -> T
    private var outcome: Result<T, any Error>?
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping () throws -> T) {
        self.work = work
    }

    func run() {
        outcome = Result { try work() }
        done.signal()
    }

    func result() throws -> T {
        done.wait()
        guard let outcome else { preconditionFailure("signalled before a result was stored") }
        return try outcome.get()
    }
}
