/// Users and their sessions in SQL.
public final class AccountStore: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Creates a user; nil when the name is taken (compared case-insensitively).
    public func createUser(username: String, passwordHash: String, at now: Int) throws -> User? {
        do {
            return try database.write { connection in
                let row = try connection.query(
                    """
                    INSERT INTO users (username, username_key, password_hash, created_at) VALUES (?, ?, ?, ?)
                    RETURNING id
                    """,
                    [.text(username), .text(Self.key(username)), .text(passwordHash), .integer(Int64(now))])
                return User(id: row.first?.int(0) ?? 0, username: username)
            }
        } catch StoreError.constraint {
            return nil
        }
    }

    /// The user and stored hash for a username, any case.
    public func credentials(username: String) throws -> (user: User, passwordHash: String)? {
        try database.withConnection { connection in
            try connection.query(
                "SELECT \(User.columns), users.password_hash FROM users WHERE users.username_key = ?",
                [.text(Self.key(username))])
        }.first.map { (User(row: $0), $0.string(User.columnCount)) }
    }

    public func updatePasswordHash(userID: Int, to hash: String) throws {
        try database.write { connection in
            try connection.query(
                "UPDATE users SET password_hash = ? WHERE id = ?", [.text(hash), .integer(Int64(userID))])
        }
    }

    // MARK: Sessions

    public func createSession(tokenHash: [UInt8], userID: Int, at now: Int) throws {
        try database.write { connection in
            try connection.query(
                "INSERT INTO sessions (token_hash, user_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)",
                [.blob(tokenHash), .integer(Int64(userID)), .integer(Int64(now)), .integer(Int64(now))])
        }
    }

    /// What a session token stands for.
    public enum SessionState: Sendable, Equatable {
        case active(User)
        /// Its account was banned: the session is deleted now, and the caller says why.
        case suspended
    }

    /// The session's user when the session exists and has not expired; touches it when
    /// the last touch is older than `touchAfter` seconds (so a busy reader is not a write per page).
    public func session(
        tokenHash: [UInt8], now: Int, idleLimit: Int, absoluteLimit: Int, touchAfter: Int
    ) throws -> SessionState? {
        let row = try database.withConnection { connection in
            try connection.query(
                """
                SELECT \(User.columns), sessions.created_at, sessions.last_seen_at, sessions.suspended
                FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.token_hash = ?
                """, [.blob(tokenHash)]
            ).first
        }
        guard let row else { return nil }
        let createdAt = row.int(User.columnCount)
        let lastSeenAt = row.int(User.columnCount + 1)
        if row.int(User.columnCount + 2) != 0 || User(row: row).isBanned {
            try deleteSession(tokenHash: tokenHash)
            return .suspended
        }
        guard now - lastSeenAt < idleLimit, now - createdAt < absoluteLimit else {
            try deleteSession(tokenHash: tokenHash)
            return nil
        }
        if now - lastSeenAt >= touchAfter {
            try database.write { connection in
                try connection.query(
                    "UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?",
                    [.integer(Int64(now)), .blob(tokenHash)])
            }
        }
        return .active(User(row: row))
    }

    public func deleteSession(tokenHash: [UInt8]) throws {
        try database.write { connection in
            try connection.query("DELETE FROM sessions WHERE token_hash = ?", [.blob(tokenHash)])
        }
    }

    /// Removes every expired session; returns how many.
    @discardableResult
    public func purgeExpiredSessions(now: Int, idleLimit: Int, absoluteLimit: Int) throws -> Int {
        try database.write { connection in
            try connection.query(
                "DELETE FROM sessions WHERE last_seen_at <= ? OR created_at <= ?",
                [.integer(Int64(now - idleLimit)), .integer(Int64(now - absoluteLimit))])
            return connection.changes
        }
    }

    /// Usernames are unique without regard to ASCII case (they are ASCII by rule).
    static func key(_ username: String) -> String { username.lowercased() }
}
