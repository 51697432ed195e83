/// An email change waiting for its new address to confirm: whose, to what, until when.
public struct PendingEmailChange: Sendable, Equatable {
    public let userID: Int
    public let email: String
    public let expiresAt: Int

    static let columns = "user_id, email, expires_at"

    init(row: SQLRow) {
        userID = row.int(0)
        email = row.string(1)
        expiresAt = row.int(2)
    }
}

/// Email changes waiting for confirmation (`email_changes`, migration 14), in SQL. One per
/// account; only the SHA-256 of a link's token is stored, so the table alone confirms nothing.
public final class EmailChangeStore: Sendable {
    public enum Confirmation: Sendable, Equatable {
        /// The account's address is now `email`; `previous` is the one it replaced, if any.
        case changed(userID: Int, email: String, previous: String?)
        /// Another account holds the address now: nothing changed, and the link still works.
        case taken
        /// Unknown, used, replaced or expired.
        case noSuchLink
    }

    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Records the change `userID` asked for, replacing the one it had waiting, if any (and
    /// purging the expired ones of every account on the way).
    public func request(userID: Int, email: String, tokenHash: [UInt8], now: Int, expiresAt: Int) throws {
        try database.write { connection in
            try connection.query("DELETE FROM email_changes WHERE expires_at <= ?", [.integer(Int64(now))])
            // An upsert, not delete-then-insert: two requests at once on PostgreSQL would
            // otherwise both find no row and the second insert would break the key.
            try connection.query(
                """
                INSERT INTO email_changes (user_id, email, token_hash, created_at, expires_at) VALUES (?, ?, ?, ?, ?)
                ON CONFLICT (user_id) DO UPDATE SET email = excluded.email, token_hash = excluded.token_hash,
                    created_at = excluded.created_at, expires_at = excluded.expires_at
                """,
                [
                    .integer(Int64(userID)), .text(email), .blob(tokenHash), .integer(Int64(now)),
                    .integer(Int64(expiresAt)),
                ])
        }
    }

    /// The change the account has waiting, if it is still live (for the account page).
    public func pending(userID: Int, now: Int) throws -> PendingEmailChange? {
        try database.withConnection { connection in
            try connection.query(
                "SELECT \(PendingEmailChange.columns) FROM email_changes WHERE user_id = ? AND expires_at > ?",
                [.integer(Int64(userID)), .integer(Int64(now))])
        }.first.map(PendingEmailChange.init(row:))
    }

    /// The live change a link's token stands for (for the confirmation page; changes nothing).
    public func pending(tokenHash: [UInt8], now: Int) throws -> PendingEmailChange? {
        try database.withConnection { connection in
            try connection.query(
                "SELECT \(PendingEmailChange.columns) FROM email_changes WHERE token_hash = ? AND expires_at > ?",
                [.blob(tokenHash), .integer(Int64(now))])
        }.first.map(PendingEmailChange.init(row:))
    }

    /// Drops whatever change the account has waiting (its address was removed, or set back, or
    /// its password changed).
    public func cancel(userID: Int) throws {
        try database.write { connection in
            try connection.query("DELETE FROM email_changes WHERE user_id = ?", [.integer(Int64(userID))])
        }
    }

    /// Uses a link: in one transaction the token is checked, the address set if no other account
    /// holds it, and the pending change deleted. When another account holds it, nothing changes.
    public func confirm(tokenHash: [UInt8], now: Int) throws -> Confirmation {
        do {
            return try database.write { connection -> Confirmation in
                guard
                    let change = try connection.query(
                        "SELECT \(PendingEmailChange.columns) FROM email_changes WHERE token_hash = ? AND expires_at > ?",
                        [.blob(tokenHash), .integer(Int64(now))]
                    ).first.map(PendingEmailChange.init(row:))
                else { return .noSuchLink }
                let id = SQLValue.integer(Int64(change.userID))
                let holders = try connection.query(
                    "SELECT id FROM users WHERE email = ? AND id <> ?", [.text(change.email), id])
                if !holders.isEmpty { return .taken }
                guard let account = try connection.query("SELECT email FROM users WHERE id = ?", [id]).first else {
                    return .noSuchLink  // the account went meanwhile
                }
                // Confirmed: this is the address that opened the link.
                try connection.query(
                    "UPDATE users SET email = ?, email_confirmed = 1 WHERE id = ?", [.text(change.email), id])
                try connection.query("DELETE FROM email_changes WHERE user_id = ?", [id])
                return .changed(userID: change.userID, email: change.email, previous: account.optionalString(0))
            }
        } catch StoreError.constraint {
            // Another account set the same address between the check and the update (the unique
            // index on users.email refused it; the transaction rolled back).
            return .taken
        }
    }
}
