/// Ids of intents already performed, kept until they expire, so that a replayed
/// (copied) intent cookie does nothing. In the database so every server sees them.
public final class PerformedIntentStore: Sendable {
    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Records `id`; false when it was already recorded (a replay).
    public func markPerformed(_ id: String, expiresAt: Int, now: Int) throws -> Bool {
        try database.write { connection in
            try connection.query("DELETE FROM performed_intents WHERE expires_at <= ?", [.integer(Int64(now))])
            try connection.query(
                "INSERT INTO performed_intents (id, expires_at) VALUES (?, ?) ON CONFLICT (id) DO NOTHING",
                [.text(id), .integer(Int64(expiresAt))])
            return connection.changes == 1
        }
    }
}
