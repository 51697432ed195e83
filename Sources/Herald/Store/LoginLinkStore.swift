import Foundation

/// A sign-in link as stored: the address it was mailed to, the browser that asked for it, and the
/// pending action that travels with it.
public struct LoginLinkRecord: Sendable, Equatable {
    public let email: String
    /// `BrowserID.digest` of the browser that asked.
    public let browser: String
    /// The signed intent cookie that was pending there, if any.
    public let intent: String?
    public let expiresAt: Int
}

/// Sign-in links in SQL (`login_links`, migration 15), so that a link asked on one server is
/// opened on another. Each is used once: `use` marks it in the statement that reads it.
final class LoginLinkStore: Sendable {
    let database: Database

    init(database: Database) {
        self.database = database
    }

    func create(tokenHash: [UInt8], email: String, browser: String, intent: String?, now: Int, expiresAt: Int) throws {
        try database.write { connection in
            try connection.query("DELETE FROM login_links WHERE expires_at <= ?", [.integer(Int64(now))])
            try connection.query(
                """
                INSERT INTO login_links (token_hash, email, browser, intent, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .blob(tokenHash), .text(email), .text(browser), intent.map(SQLValue.text) ?? .null,
                    .integer(Int64(now)), .integer(Int64(expiresAt)),
                ])
        }
    }

    /// The live, unused link, without using it (its page).
    func unused(tokenHash: [UInt8], now: Int) throws -> LoginLinkRecord? {
        try database.withConnection { connection in
            try connection.query(
                """
                SELECT email, browser, intent, expires_at FROM login_links
                WHERE token_hash = ? AND expires_at > ? AND used_at IS NULL
                """, [.blob(tokenHash), .integer(Int64(now))]
            ).first.map(Self.record)
        }
    }

    /// Uses the live, unused link: marked used as it is read, so two clicks cannot both log in.
    func use(tokenHash: [UInt8], now: Int) throws -> LoginLinkRecord? {
        try database.write { connection in
            try connection.query(
                """
                UPDATE login_links SET used_at = ? WHERE token_hash = ? AND expires_at > ? AND used_at IS NULL
                RETURNING email, browser, intent, expires_at
                """, [.integer(Int64(now)), .blob(tokenHash), .integer(Int64(now))]
            ).first.map(Self.record)
        }
    }

    /// The intent carried by a used link, taken (single use) for its confirmation or its cancelling.
    /// Kept until the link's expiry plus `grace`, so the reader has time to decide.
    func takeCarriedIntent(tokenHash: [UInt8], now: Int, grace: Int) throws -> LoginLinkRecord? {
        try database.write { connection in
            let row = try connection.query(
                """
                SELECT email, browser, intent, expires_at FROM login_links
                WHERE token_hash = ? AND used_at IS NOT NULL AND intent IS NOT NULL AND expires_at + ? > ?
                """, [.blob(tokenHash), .integer(Int64(grace)), .integer(Int64(now))]
            ).first
            try connection.query("UPDATE login_links SET intent = NULL WHERE token_hash = ?", [.blob(tokenHash)])
            return row.map(Self.record)
        }
    }

    /// The intent a used link carries, without taking it (the confirmation page).
    func carriedIntent(tokenHash: [UInt8], now: Int, grace: Int) throws -> LoginLinkRecord? {
        try database.withConnection { connection in
            try connection.query(
                """
                SELECT email, browser, intent, expires_at FROM login_links
                WHERE token_hash = ? AND used_at IS NOT NULL AND intent IS NOT NULL AND expires_at + ? > ?
                """, [.blob(tokenHash), .integer(Int64(grace)), .integer(Int64(now))]
            ).first.map(Self.record)
        }
    }

    private static func record(_ row: SQLRow) -> LoginLinkRecord {
        LoginLinkRecord(
            email: row.string(0), browser: row.string(1), intent: row[2] == .null ? nil : row.string(2),
            expiresAt: row.int(3))
    }
}
