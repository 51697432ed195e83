/// Events counted in sliding windows (failed logins per name and per address,
/// registrations per address), kept in the database so every server of a site sees them.
public final class ThrottleStore: Sendable {
    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// How many events `scope` had in the window ending now, and when the oldest of them happened.
    public func recent(_ scope: String, now: Int, window: Int) throws -> (count: Int, oldest: Int?) {
        let row = try database.withConnection { connection in
            try connection.query(
                "SELECT count(*), min(at) FROM throttle_events WHERE scope = ? AND at > ?",
                [.text(scope), .integer(Int64(now - window))]
            ).first
        }
        guard let row else { return (0, nil) }
        if case .integer(let oldest) = row[1] { return (row.int(0), Int(oldest)) }
        return (row.int(0), nil)
    }

    /// Records one event and forgets this scope's events that have left the window.
    public func record(_ scopes: [String], now: Int, window: Int) throws {
        try database.write { connection in
            for scope in scopes {
                try connection.query(
                    "DELETE FROM throttle_events WHERE scope = ? AND at <= ?",
                    [.text(scope), .integer(Int64(now - window))])
                try connection.query(
                    "INSERT INTO throttle_events (scope, at) VALUES (?, ?)", [.text(scope), .integer(Int64(now))])
            }
        }
    }
}
