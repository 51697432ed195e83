import Foundation

/// Write transactions that arrive together are committed together: one `BEGIN … COMMIT` (one
/// WAL append on SQLite, one fsync on PostgreSQL) for a batch of writers, each writer's work in a
/// savepoint of its own so one writer's failure rolls back only its part.
///
/// There is no writer thread: the first writer to find no batch running becomes the leader, takes
/// everything queued, runs it and commits, then wakes the others, and the next waiting writer
/// leads the next batch. A writer returns only after the transaction holding its work committed,
/// so every acknowledged write is as durable as a transaction of its own (kill -9 loses nothing
/// acknowledged); if the COMMIT fails, every writer in the batch gets the error.
///
/// One batch runs at a time per process, which is also what SQLite needs (one writer at a time);
/// waiting here wakes a writer the moment its batch committed, instead of SQLite's busy handler.
final class GroupCommit: @unchecked Sendable {
    /// A batch holds at most this many writers: their wait stays bounded however many arrive.
    static let maximumBatch = 64

    /// One writer's work and, once its batch committed (or failed), its outcome.
    private final class Job {
        let work: (any SQLConnection) throws -> Void
        var failure: (any Error)?
        var done = false
        init(_ work: @escaping (any SQLConnection) throws -> Void) { self.work = work }
    }

    private let condition = NSCondition()
    private var queued: [Job] = []
    private var leading = false
    private let savepoints: Savepoints

    /// How a dialect names its savepoint statements.
    struct Savepoints {
        let begin: String
        let release: String
        let rollback: String
    }

    init(savepoints: Savepoints) {
        self.savepoints = savepoints
    }

    /// A connection for one batch's transaction, lent for the duration of the closure.
    typealias ConnectionLender = ((any SQLConnection) throws -> Void) throws -> Void

    /// Commits `body`'s writes, batched with whatever other writers are waiting; returns once they
    /// are committed. A leader borrows its connection from `lender`, and tells `committed` how
    /// many writers its transaction carried.
    func write<T>(
        _ body: (any SQLConnection) throws -> T, lender: ConnectionLender, committed: (Int) -> Void
    ) throws -> T {
        try withoutActuallyEscaping(body) { body in
            var result: T?
            let job = Job { connection in result = try body(connection) }
            condition.lock()
            queued.append(job)
            while !job.done {
                if leading {
                    condition.wait()
                    continue
                }
                leading = true
                let batch = Array(queued.prefix(Self.maximumBatch))
                queued.removeFirst(batch.count)
                condition.unlock()
                if run(batch, lender) { committed(batch.count) }
                condition.lock()
                leading = false
                for finished in batch { finished.done = true }
                condition.broadcast()
            }
            condition.unlock()
            if let failure = job.failure { throw failure }
            guard let result else { throw StoreError.failed("a write finished without a result") }
            return result
        }
    }

    /// One transaction for the batch. A lone writer needs no savepoint: its failure is the
    /// transaction's.
    private func run(_ batch: [Job], _ lender: ConnectionLender) -> Bool {
        do {
            try lender { connection in
                try connection.transaction {
                    if batch.count == 1 {
                        try batch[0].work(connection)
                        return
                    }
                    for job in batch {
                        try connection.execute(savepoints.begin)
                        do {
                            try job.work(connection)
                            try connection.execute(savepoints.release)
                        } catch {
                            job.failure = error
                            try connection.execute(savepoints.rollback)
                            try connection.execute(savepoints.release)
                        }
                    }
                }
            }
            return true
        } catch {
            // The transaction did not commit: nothing of the batch was written.
            for job in batch { job.failure = error }
            return false
        }
    }
}
