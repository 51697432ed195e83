/// Roles, email, password resets, other sessions, export and deletion: the parts of an account
/// after it was made.
extension AccountStore {
    /// The account with this name, any case.
    public func account(named username: String) throws -> StoredAccount? {
        try database.withConnection { connection in
            try connection.query(
                "SELECT \(StoredAccount.columns) FROM users WHERE username_key = ?", [.text(Self.key(username))])
        }.first.map(StoredAccount.init(row:))
    }

    public func account(id: Int) throws -> StoredAccount? {
        try database.withConnection { connection in
            try connection.query("SELECT \(StoredAccount.columns) FROM users WHERE id = ?", [.integer(Int64(id))])
        }.first.map(StoredAccount.init(row:))
    }

    /// Every account, by name (for `herald users list`).
    public func allAccounts() throws -> [StoredAccount] {
        try database.withConnection { connection in
            try connection.query("SELECT \(StoredAccount.columns) FROM users ORDER BY username_key")
        }.map(StoredAccount.init(row:))
    }

    public func setRoles(userID: Int, to roles: Roles) throws {
        try database.write { connection in
            try connection.query(
                "UPDATE users SET roles = ? WHERE id = ?", [.integer(Int64(roles.rawValue)), .integer(Int64(userID))])
        }
    }

    /// Sets (or with nil removes) the account's email; false when another account uses it.
    /// `confirmed`: the address proved itself by opening a mailed link (else, typed at
    /// registration, it is not confirmed until it does).
    public func setEmail(userID: Int, to email: String?, confirmed: Bool = false) throws -> Bool {
        do {
            try database.write { connection in
                try connection.query(
                    "UPDATE users SET email = ?, email_confirmed = ? WHERE id = ?",
                    [email.map(SQLValue.text) ?? .null, .integer(confirmed ? 1 : 0), .integer(Int64(userID))])
            }
            return true
        } catch StoreError.constraint {
            return false
        }
    }

    /// The account's address opened a mailed link (a sign-in link): it is confirmed, if it is
    /// still the account's.
    public func markEmailConfirmed(userID: Int, email: String) throws {
        try database.write { connection in
            try connection.query(
                "UPDATE users SET email_confirmed = 1 WHERE id = ? AND email = ? AND email_confirmed = 0",
                [.integer(Int64(userID)), .text(email)])
        }
    }

    public func userID(email: String) throws -> Int? {
        try database.withConnection { connection in
            try connection.query("SELECT id FROM users WHERE email = ?", [.text(email)])
        }.first?.int(0)
    }

    /// A new password hash; every reset link of the account is voided with the old password.
    public func changePassword(userID: Int, to hash: String) throws {
        try database.write { connection in
            try connection.query(
                "UPDATE users SET password_hash = ? WHERE id = ?", [.text(hash), .integer(Int64(userID))])
            try connection.query("DELETE FROM password_resets WHERE user_id = ?", [.integer(Int64(userID))])
        }
    }

    /// Ends every session of the account but the one with `keeping` (all of them when nil).
    public func deleteSessions(userID: Int, keeping: [UInt8]? = nil) throws {
        try database.write { connection in
            if let keeping {
                try connection.query(
                    "DELETE FROM sessions WHERE user_id = ? AND token_hash <> ?",
                    [.integer(Int64(userID)), .blob(keeping)])
            } else {
                try connection.query("DELETE FROM sessions WHERE user_id = ?", [.integer(Int64(userID))])
            }
        }
    }

    // MARK: Password resets

    public func createPasswordReset(tokenHash: [UInt8], userID: Int, now: Int, expiresAt: Int) throws {
        try database.write { connection in
            try connection.query("DELETE FROM password_resets WHERE expires_at <= ?", [.integer(Int64(now))])
            try connection.query(
                "INSERT INTO password_resets (token_hash, user_id, created_at, expires_at) VALUES (?, ?, ?, ?)",
                [.blob(tokenHash), .integer(Int64(userID)), .integer(Int64(now)), .integer(Int64(expiresAt))])
        }
    }

    /// The account a live reset token belongs to.
    public func passwordResetUser(tokenHash: [UInt8], now: Int) throws -> Int? {
        try database.withConnection { connection in
            try connection.query(
                "SELECT user_id FROM password_resets WHERE token_hash = ? AND expires_at > ?",
                [.blob(tokenHash), .integer(Int64(now))])
        }.first?.int(0)
    }

    /// Uses a reset token: in one transaction the token is checked and spent, the password set,
    /// the account's other tokens and all its sessions removed. Nil when the token is not live.
    public func resetPassword(tokenHash: [UInt8], to hash: String, now: Int) throws -> Int? {
        try database.write { connection in
            guard
                let userID = try connection.query(
                    "SELECT user_id FROM password_resets WHERE token_hash = ? AND expires_at > ?",
                    [.blob(tokenHash), .integer(Int64(now))]
                ).first?.int(0)
            else { return nil }
            try connection.query(
                "UPDATE users SET password_hash = ? WHERE id = ?", [.text(hash), .integer(Int64(userID))])
            try connection.query("DELETE FROM password_resets WHERE user_id = ?", [.integer(Int64(userID))])
            try connection.query("DELETE FROM sessions WHERE user_id = ?", [.integer(Int64(userID))])
            return userID
        }
    }

    // MARK: Export and deletion

    /// The reader's likes (slug, title, time), newest first.
    public func exportedLikes(userID: Int) throws -> [(slug: String, title: String, at: Int)] {
        try database.withConnection { connection in
            try connection.query(
                """
                SELECT a.slug, a.title, l.liked_at FROM likes l JOIN articles a ON a.id = l.article_id
                WHERE l.user_id = ? ORDER BY l.liked_at DESC, l.article_id DESC
                """, [.integer(Int64(userID))])
        }.map { (slug: $0.string(0), title: $0.string(1), at: $0.int(2)) }
    }

    /// The reader's comments (id, article slug, text, time), oldest first.
    public func exportedComments(userID: Int) throws -> [(id: Int, slug: String, text: String, at: Int)] {
        try database.withConnection { connection in
            try connection.query(
                """
                SELECT c.id, a.slug, c.body, c.created_at FROM comments c JOIN articles a ON a.id = c.article_id
                WHERE c.user_id = ? ORDER BY c.id
                """, [.integer(Int64(userID))])
        }.map { (id: $0.int(0), slug: $0.string(1), text: $0.string(2), at: $0.int(3)) }
    }

    /// Deletes the account with its sessions, likes, comments and reset tokens, in one transaction
    /// that first takes its likes and comments out of every article's counts.
    public func deleteAccount(userID: Int) throws {
        try database.write { connection in
            let id = SQLValue.integer(Int64(userID))
            try connection.query(
                """
                UPDATE articles SET like_count = like_count - 1
                WHERE id IN (SELECT article_id FROM likes WHERE user_id = ?)
                """, [id])
            try connection.query(
                """
                UPDATE articles SET comment_count = comment_count - (
                    SELECT count(*) FROM comments c WHERE c.article_id = articles.id AND c.user_id = ? AND c.hidden = 0)
                WHERE id IN (SELECT article_id FROM comments WHERE user_id = ?)
                """, [id, id])
            try connection.query("DELETE FROM likes WHERE user_id = ?", [id])
            // Its open reports go with it (a cascade): each comment it reported has one fewer.
            try connection.query(
                """
                UPDATE comments SET open_reports = open_reports - 1
                WHERE id IN (SELECT comment_id FROM comment_reports WHERE user_id = ? AND is_open = 1)
                """, [id])
            let repliedTo = try connection.query(
                "SELECT DISTINCT reply_to_user FROM comments WHERE user_id = ? AND reply_to_user IS NOT NULL", [id]
            ).map { $0.int(0) }
            try connection.query("DELETE FROM comments WHERE user_id = ?", [id])
            try CommentStore.recountUnreadReplies(of: repliedTo, connection)
            try connection.query("DELETE FROM sessions WHERE user_id = ?", [id])
            try connection.query("DELETE FROM password_resets WHERE user_id = ?", [id])
            try connection.query("DELETE FROM users WHERE id = ?", [id])
        }
    }
}

/// An account as stored, without its password hash.
public struct StoredAccount: Sendable, Equatable {
    public var user: User
    public var email: String?
    public var createdAt: Int
    /// The address opened a mailed link (see Migrations, step 16).
    public var emailConfirmed = false
    /// Replies to the reader's comments are mailed to them.
    public var mailsReplies = false

    static let columns =
        User.columns + ", users.email, users.created_at, users.email_confirmed, users.reply_mail"

    public var roles: Roles { user.roles }

    /// Mail about replies can be sent only to a confirmed address.
    public var mayMailReplies: Bool { email != nil && emailConfirmed }

    init(row: SQLRow) {
        user = User(row: row)
        email = row[User.columnCount] == .null ? nil : row.string(User.columnCount)
        createdAt = row.int(User.columnCount + 1)
        emailConfirmed = row.int(User.columnCount + 2) != 0
        mailsReplies = row.int(User.columnCount + 3) != 0
    }
}
