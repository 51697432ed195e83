/// Mail about replies in SQL: the reader's setting, and the digests — which replies each mail
/// holds. A reply is claimed (its `mailed_at` set) in the same transaction that moves its reader's
/// `reply_mailed_at`, guarded by that reader's row: on PostgreSQL the guarded `UPDATE` takes the
/// row's lock, so a second server running the same round waits, then finds the reader not due
/// and claims nothing; on SQLite the single writer does the same. Each reply is in one mail.
public final class ReplyMailStore: Sendable {
    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Turns the setting on (from `now`: older replies are never mailed) or off. Turning it on
    /// needs a confirmed address: false, and nothing changed, when the account has none.
    public func setReplyMail(userID: Int, on: Bool, now: Int) throws -> Bool {
        try database.write { connection in
            let id = SQLValue.integer(Int64(userID))
            if on {
                try connection.query(
                    """
                    UPDATE users SET reply_mail = 1, reply_mail_since = ?
                    WHERE id = ? AND email IS NOT NULL AND email_confirmed = 1 AND reply_mail = 0
                    """, [.integer(Int64(now)), id])
                return try connection.query(
                    "SELECT reply_mail FROM users WHERE id = ?", [id]
                ).first?.int(0) == 1
            }
            try connection.query("UPDATE users SET reply_mail = 0 WHERE id = ?", [id])
            return true
        }
    }

    /// What an unsubscribe token is checked against: the account's name and creation time (a
    /// token names both, so a reused id does not inherit an old link), and whether it is on.
    public func subscriber(userID: Int) throws -> (username: String, createdAt: Int, isOn: Bool)? {
        try database.withConnection { connection in
            try connection.query(
                "SELECT username, created_at, reply_mail FROM users WHERE id = ?", [.integer(Int64(userID))])
        }.first.map { ($0.string(0), $0.int(1), $0.int(2) != 0) }
    }

    /// The replies a digest may hold, for the reader in `users`: by someone else, visible, by an
    /// author who is not banned, on a published article, unread, newer than the setting, not yet
    /// mailed. `c` is the reply, `a` its author; the ban and the article's `published` test each
    /// take `now`, in that order.
    private static let mailable = """
        c.mailed_at IS NULL AND c.user_id <> c.reply_to_user AND c.hidden = 0 AND c.reply_read = 0
        AND c.created_at >= users.reply_mail_since
        AND EXISTS (SELECT 1 FROM users a WHERE a.id = c.user_id AND \(User.notBannedSQL("a")))
        AND EXISTS (SELECT 1 FROM articles WHERE articles.id = c.article_id AND \(ArticleStore.published))
        """

    /// The condition on `users` for a reader whose digest may go at `now`: on, a confirmed
    /// address, not banned at `now`, and no digest since `lastBefore` (the interval ago): its two
    /// parameters, in that order.
    private static let due = """
        users.reply_mail = 1 AND users.email IS NOT NULL AND users.email_confirmed = 1
        AND \(User.notBannedSQL("users"))
        AND (users.reply_mailed_at IS NULL OR users.reply_mailed_at <= ?)
        """

    /// Readers due a digest at `now` who have replies to mail, at most `limit` (the rest wait for
    /// the next round). Read without locks: `claimDigest` checks each again.
    public func dueReaders(now: Int, interval: Int, limit: Int) throws -> [Int] {
        try database.withConnection { connection in
            try connection.query(
                """
                SELECT users.id FROM users WHERE \(Self.due)
                AND EXISTS (SELECT 1 FROM comments c WHERE c.reply_to_user = users.id AND \(Self.mailable))
                ORDER BY users.id LIMIT ?
                """,
                [
                    .integer(Int64(now)), .integer(Int64(now - interval)), .integer(Int64(now)), .integer(Int64(now)),
                    .integer(Int64(limit)),
                ])
        }.map { $0.int(0) }
    }

    /// Nothing to claim: rolls the reader's `reply_mailed_at` back with the transaction.
    private struct NothingToClaim: Error {}

    /// Claims every mailable reply to `userID` for one digest sent at `now`, or nil when the
    /// reader is not due (another server sent theirs, or less than `interval` ago) or has none.
    public func claimDigest(userID: Int, now: Int, interval: Int) throws -> ReplyDigest? {
        do {
            return try database.write { connection -> ReplyDigest in
                let id = SQLValue.integer(Int64(userID))
                let at = SQLValue.integer(Int64(now))
                guard
                    let reader = try connection.query(
                        "UPDATE users SET reply_mailed_at = ? WHERE id = ? AND \(Self.due) RETURNING username, email, created_at, language",
                        [at, id, at, .integer(Int64(now - interval))]
                    ).first
                else { throw NothingToClaim() }
                let claimed = try connection.query(
                    """
                    UPDATE comments SET mailed_at = ? WHERE id IN (
                        SELECT c.id FROM comments c JOIN users ON users.id = c.reply_to_user
                        WHERE c.reply_to_user = ? AND \(Self.mailable))
                    RETURNING id
                    """, [at, id, at, at])
                guard !claimed.isEmpty else { throw NothingToClaim() }
                let replies = try connection.query(
                    """
                    SELECT c.id, c.body, c.created_at, a.username, articles.slug, articles.title
                    FROM comments c JOIN users a ON a.id = c.user_id JOIN articles ON articles.id = c.article_id
                    WHERE c.reply_to_user = ? AND c.mailed_at = ? ORDER BY articles.id, c.id
                    """, [id, at]
                ).map(ReplyDigest.Reply.init(row:))
                return ReplyDigest(
                    userID: userID, username: reader.string(0), email: reader.string(1),
                    accountCreatedAt: reader.int(2), language: reader[3] == .null ? nil : reader.string(3), sentAt: now,
                    replies: replies)
            }
        } catch is NothingToClaim {
            return nil
        }
    }

    /// The digest could not be queued: its replies are unmailed again and the reader due at the
    /// next round, unless a later claim already replaced it.
    public func release(_ digest: ReplyDigest) throws {
        try database.write { connection in
            let id = SQLValue.integer(Int64(digest.userID))
            let at = SQLValue.integer(Int64(digest.sentAt))
            try connection.query(
                "UPDATE comments SET mailed_at = NULL WHERE reply_to_user = ? AND mailed_at = ?", [id, at])
            try connection.query(
                "UPDATE users SET reply_mailed_at = NULL WHERE id = ? AND reply_mailed_at = ?", [id, at])
        }
    }
}

/// One mail's worth of replies to a reader's comments, as claimed.
public struct ReplyDigest: Sendable, Equatable {
    public struct Reply: Sendable, Equatable {
        public var commentID: Int
        public var body: String
        public var createdAt: Int
        public var author: String
        public var articleSlug: String
        public var articleTitle: String

        init(row: SQLRow) {
            commentID = row.int(0)
            body = row.string(1)
            createdAt = row.int(2)
            author = row.string(3)
            articleSlug = row.string(4)
            articleTitle = row.string(5)
        }
    }

    public var userID: Int
    public var username: String
    public var email: String
    /// For the unsubscribe link, which names the account by id and creation time.
    public var accountCreatedAt: Int
    /// The interface language the reader chose (`users.language`); nil: the site's.
    public var language: String?
    /// The round's time: what the claim wrote, and what `release` looks for.
    public var sentAt: Int
    /// By article, then oldest first.
    public var replies: [Reply]
}
