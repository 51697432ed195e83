/// Events counted in sliding windows (failed logins per name and per address, registrations,
/// comments), kept in the database so every server of a site sees them.
///
/// Counting and recording happen in one write transaction, so parallel requests cannot all
/// see room under the limit and all go through: on SQLite the transaction is the single
/// writer; on PostgreSQL each scope is also locked for the transaction (an advisory lock on
/// its hash), since READ COMMITTED alone would let two counts run side by side.
public final class RateLimitStore: Sendable {
    /// A window's events for one scope, and how many it may hold.
    public struct Window: Sendable {
        public let scope: String
        public let limit: Int
        public let seconds: Int
    }

    public enum Taken: Sendable, Equatable {
        /// One event was recorded in every window; the ids let a caller take them back.
        case recorded(eventIDs: [Int])
        /// A window is full; nothing was recorded. Its oldest event leaves it in this many seconds.
        case full(retryAfterSeconds: Int)
    }

    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Records one event in each window, or none when any of them is full.
    public func take(_ windows: [Window], now: Int) throws -> Taken {
        try database.write { connection in
            if database.dialect == .postgres {
                // Sorted, so two requests locking the same scopes cannot deadlock.
                for scope in Set(windows.map(\.scope)).sorted() {
                    try connection.query("SELECT pg_advisory_xact_lock(hashtext(?))", [.text(scope)])
                }
            }
            for window in windows {
                let row = try connection.query(
                    "SELECT count(*), min(at) FROM rate_limit_events WHERE scope = ? AND at > ?",
                    [.text(window.scope), .integer(Int64(now - window.seconds))]
                ).first
                let count = row?.int(0) ?? 0
                if count >= window.limit {
                    let oldest = row.map { $0[1] == .null ? now : $0.int(1) } ?? now
                    return .full(retryAfterSeconds: max(1, oldest + window.seconds - now))
                }
            }
            var ids: [Int] = []
            for window in windows {
                try connection.query(
                    "DELETE FROM rate_limit_events WHERE scope = ? AND at <= ?",
                    [.text(window.scope), .integer(Int64(now - window.seconds))])
                let row = try connection.query(
                    "INSERT INTO rate_limit_events (scope, at) VALUES (?, ?) RETURNING id",
                    [.text(window.scope), .integer(Int64(now))]
                ).first
                ids.append(row?.int(0) ?? 0)
            }
            return .recorded(eventIDs: ids)
        }
    }

    /// Forgets events recorded by `take` (a login that succeeded was not a failure after all).
    public func remove(eventIDs: [Int]) throws {
        guard !eventIDs.isEmpty else { return }
        try database.write { connection in
            for id in eventIDs {
                try connection.query("DELETE FROM rate_limit_events WHERE id = ?", [.integer(Int64(id))])
            }
        }
    }
}
