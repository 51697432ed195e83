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
        /// Its account is banned (`User.activeBan(at:)`): the session is deleted now, and the caller says why.
        case suspended
    }

    /// The session's user when the session exists and has not expired; touches it when
    /// the last touch is older than `touchAfter` seconds (so a busy reader is not a write per page).
    /// An expired session is not deleted here: its row is kept (dead) until
    /// `purgeExpiredSessions` removes it, so `recentOwner` can still say whose it was.
    public func session(
        tokenHash: [UInt8], now: Int, idleLimit: Int, absoluteLimit: Int, touchAfter: Int
    ) throws -> SessionState? {
        guard let row = try sessionRow(tokenHash: tokenHash) else { return nil }
        // A session a ban suspended stays dead after the ban runs out: the reader logs in again.
        if row.isSuspended || row.user.isBanned(at: now) {
            try deleteSession(tokenHash: tokenHash)
            return .suspended
        }
        guard now < row.expiresAt(idleLimit: idleLimit, absoluteLimit: absoluteLimit) else { return nil }
        if now - row.lastSeenAt >= touchAfter {
            try database.write { connection in
                try connection.query(
                    "UPDATE sessions SET last_seen_at = ? WHERE token_hash = ?",
                    [.integer(Int64(now)), .blob(tokenHash)])
            }
        }
        return .active(row.user)
    }

    /// The account whose session this is, when the session is live or ended by expiry less than
    /// `grace` seconds ago; nil for an unknown (or logged-out, or purged) token, a suspended
    /// session, or a banned account. Reads only: nothing is touched or deleted.
    public func recentOwner(
        tokenHash: [UInt8], now: Int, idleLimit: Int, absoluteLimit: Int, grace: Int
    ) throws -> User? {
        guard let row = try sessionRow(tokenHash: tokenHash), !row.isSuspended, !row.user.isBanned(at: now)
        else { return nil }
        return now < row.expiresAt(idleLimit: idleLimit, absoluteLimit: absoluteLimit) + grace ? row.user : nil
    }

    /// A session as stored, with its account.
    private struct SessionRow {
        let user: User
        let createdAt: Int
        let lastSeenAt: Int
        let isSuspended: Bool

        /// When it ends by itself: idle too long, or too old, whichever comes first.
        func expiresAt(idleLimit: Int, absoluteLimit: Int) -> Int {
            min(lastSeenAt + idleLimit, createdAt + absoluteLimit)
        }
    }

    private func sessionRow(tokenHash: [UInt8]) throws -> SessionRow? {
        let row = try database.withConnection { connection in
            try connection.query(
                """
                SELECT \(User.columns), sessions.created_at, sessions.last_seen_at, sessions.suspended
                FROM sessions JOIN users ON users.id = sessions.user_id WHERE sessions.token_hash = ?
                """, [.blob(tokenHash)]
            ).first
        }
        return row.map {
            SessionRow(
                user: User(row: $0), createdAt: $0.int(User.columnCount), lastSeenAt: $0.int(User.columnCount + 1),
                isSuspended: $0.int(User.columnCount + 2) != 0)
        }
    }

    public func deleteSession(tokenHash: [UInt8]) throws {
        try database.write { connection in
            try connection.query("DELETE FROM sessions WHERE token_hash = ?", [.blob(tokenHash)])
        }
    }

    /// Removes every session that expired more than `keepingFor` seconds ago (until then its row
    /// says whose it was: `recentOwner`); returns how many.
    @discardableResult
    public func purgeExpiredSessions(now: Int, idleLimit: Int, absoluteLimit: Int, keepingFor grace: Int) throws
        -> Int
    {
        try database.write { connection in
            try connection.query(
                "DELETE FROM sessions WHERE last_seen_at <= ? OR created_at <= ?",
                [.integer(Int64(now - idleLimit - grace)), .integer(Int64(now - absoluteLimit - grace))])
            return connection.changes
        }
    }

    /// Usernames are unique without regard to ASCII case (they are ASCII by rule).
    static func key(_ username: String) -> String { username.lowercased() }
}
