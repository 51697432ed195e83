/// Comments in SQL; each change updates the article's `comment_count` in the same transaction.
public final class CommentStore: Sendable {
    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Adds a comment (a reply when `parent` is given) and returns its id. A reply to someone
    /// else counts as unread for them until they open their replies.
    public func add(articleID: Int, userID: Int, body: String, parent: Comment? = nil, at now: Int) throws -> Int {
        try database.write { connection in
            guard
                let id = try connection.query(
                    "UPDATE id_counters SET last = last + 1 WHERE name = 'comments' RETURNING last"
                ).first?.int(0)
            else { throw StoreError.failed("the comment id counter is missing") }
            try connection.query(
                """
                INSERT INTO comments (id, article_id, user_id, body, created_at, parent_id, thread_id, reply_to_user)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .integer(Int64(id)), .integer(Int64(articleID)), .integer(Int64(userID)), .text(body),
                    .integer(Int64(now)),
                    parent.map { .integer(Int64($0.id)) } ?? .null,
                    parent.map { .integer(Int64($0.threadID)) } ?? .null,
                    parent.map { .integer(Int64($0.userID)) } ?? .null,
                ])
            if parent == nil {
                try connection.query("UPDATE comments SET thread_id = id WHERE id = ?", [.integer(Int64(id))])
            }
            try connection.query(
                "UPDATE articles SET comment_count = comment_count + 1 WHERE id = ?", [.integer(Int64(articleID))])
            if let parent, parent.userID != userID { try Self.recountUnreadReplies(of: [parent.userID], connection) }
            return id
        }
    }

    /// The comments of one page of an article's conversations: `size` top-level threads, oldest
    /// first, each with all its replies; plus whether a later page exists.
    public func threads(articleID: Int, page: Int, size: Int) throws -> (comments: [Comment], hasMore: Bool) {
        try database.withConnection { connection in
            let threads = try connection.query(
                """
                SELECT DISTINCT thread_id FROM comments WHERE article_id = ? ORDER BY thread_id LIMIT ? OFFSET ?
                """, [.integer(Int64(articleID)), .integer(Int64(size + 1)), .integer(Int64((page - 1) * size))]
            ).map { $0.int(0) }
            guard let first = threads.first else { return ([], false) }
            let last = threads.prefix(size).last ?? first
            let comments = try connection.query(
                """
                \(Comment.selection) WHERE comments.article_id = ? AND comments.thread_id >= ? AND comments.thread_id <= ?
                ORDER BY comments.id
                """, [.integer(Int64(articleID)), .integer(Int64(first)), .integer(Int64(last))]
            ).map(Comment.init(row:))
            return (comments, threads.count > size)
        }
    }

    /// Which page of `size` threads holds the comment's thread (1 for the first).
    public func page(holding comment: Comment, size: Int) throws -> Int {
        let before = try database.withConnection { connection in
            try connection.query(
                Self.threadsBefore(article: "?", thread: "?"),
                [.integer(Int64(comment.articleID)), .integer(Int64(comment.threadID))]
            ).first?.int(0) ?? 0
        }
        return Self.page(threadsBefore: before, size: size)
    }

    /// How many conversations on `article` come before `thread` (SQL expressions: placeholders or
    /// columns). One rule for both ways a comment's page is found: the redirect after posting it,
    /// and the link on a reply in `/me/replies`.
    private static func threadsBefore(article: String, thread: String) -> String {
        "SELECT count(DISTINCT earlier.thread_id) FROM comments earlier "
            + "WHERE earlier.article_id = \(article) AND earlier.thread_id < \(thread)"
    }

    private static func page(threadsBefore before: Int, size: Int) -> Int {
        before / size + 1
    }

    /// Replaces the comment's text, recording when.
    public func edit(id: Int, body: String, at now: Int) throws {
        try database.write { connection in
            try connection.query(
                "UPDATE comments SET body = ?, edited_at = ? WHERE id = ?",
                [.text(body), .integer(Int64(now)), .integer(Int64(id))])
        }
    }

    /// A reply to one of a reader's comments, for their list of replies.
    public struct Reply: Sendable, Equatable {
        public var comment: Comment
        public var articleSlug: String
        public var articleTitle: String
        public var isUnread: Bool
        /// The article's page of comments that holds it (1 for the first), with `threadsPerPage`
        /// conversations a page.
        public var commentsPage: Int
    }

    /// The reply list's columns: a comment, its article, whether it was read, and how many
    /// conversations come before its own on the article (its page, without a query per reply).
    private static let replySelection = Comment.selection.replacingOccurrences(
        of: "FROM comments",
        with: """
            , articles.slug, articles.title, comments.reply_read, (
                \(threadsBefore(article: "comments.article_id", thread: "comments.thread_id")))
            FROM comments
            """)

    /// Replies to `userID`'s comments by others, newest first, that readers can see, each with the
    /// page of `threadsPerPage` conversations that holds it.
    public func replies(to userID: Int, page: Int, size: Int, threadsPerPage: Int, now: Int) throws -> (
        replies: [Reply], hasMore: Bool
    ) {
        let rows = try database.withConnection { connection in
            try connection.query(
                """
                \(Self.replySelection)
                JOIN articles ON articles.id = comments.article_id
                WHERE comments.reply_to_user = ? AND comments.user_id <> ? AND comments.hidden = 0
                AND \(ArticleStore.published)
                ORDER BY comments.id DESC LIMIT ? OFFSET ?
                """,
                [
                    .integer(Int64(userID)), .integer(Int64(userID)), .integer(Int64(now)), .integer(Int64(size + 1)),
                    .integer(Int64((page - 1) * size)),
                ])
        }
        let replies = rows.prefix(size).map { row in
            Reply(
                comment: Comment(row: row), articleSlug: row.string(Comment.columnCount),
                articleTitle: row.string(Comment.columnCount + 1), isUnread: row.int(Comment.columnCount + 2) == 0,
                commentsPage: Self.page(threadsBefore: row.int(Comment.columnCount + 3), size: threadsPerPage))
        }
        return (replies, rows.count > size)
    }

    /// Marks every reply to `userID` read.
    public func markRepliesRead(of userID: Int) throws {
        try database.write { connection in
            try connection.query(
                "UPDATE comments SET reply_read = 1 WHERE reply_to_user = ? AND reply_read = 0",
                [.integer(Int64(userID))])
            try connection.query("UPDATE users SET unread_replies = 0 WHERE id = ?", [.integer(Int64(userID))])
        }
    }

    /// Sets each account's unread-reply count to its rows: replies by others, unread, not hidden.
    /// Called in every transaction that adds, removes, hides or restores a reply.
    static func recountUnreadReplies(of userIDs: [Int], _ connection: any SQLConnection) throws {
        for userID in Set(userIDs) {
            try connection.query(
                """
                UPDATE users SET unread_replies = (
                    SELECT count(*) FROM comments WHERE reply_to_user = users.id AND reply_read = 0 AND hidden = 0
                    AND user_id <> users.id)
                WHERE id = ?
                """, [.integer(Int64(userID))])
        }
    }

    public func comment(id: Int) throws -> Comment? {
        try database.withConnection { connection in
            try connection.query("\(Comment.selection) WHERE comments.id = ?", [.integer(Int64(id))])
        }.first.map(Comment.init(row:))
    }

    /// Deletes the comment if `userID` wrote it; false when it is someone else's or gone. A hidden
    /// comment was already out of the count.
    public func delete(id: Int, byUserID userID: Int) throws -> Bool {
        try database.write { connection in
            let row = try connection.query(
                "SELECT article_id, hidden, reply_to_user FROM comments WHERE id = ? AND user_id = ?",
                [.integer(Int64(id)), .integer(Int64(userID))]
            ).first
            guard let row else { return false }
            try connection.query("DELETE FROM comments WHERE id = ?", [.integer(Int64(id))])
            if row.int(1) == 0 {
                try connection.query(
                    "UPDATE articles SET comment_count = comment_count - 1 WHERE id = ?", [.integer(Int64(row.int(0)))])
            }
            if let repliedTo = row.optionalInt(2) { try Self.recountUnreadReplies(of: [repliedTo], connection) }
            return true
        }
    }

    /// The number of visible comment rows for an article (what `comment_count` must equal).
    public func countVisibleRows(articleID: Int) throws -> Int {
        try database.withConnection { connection in
            try connection.query(
                "SELECT count(*) FROM comments WHERE article_id = ? AND hidden = 0", [.integer(Int64(articleID))]
            ).first?.int(0) ?? 0
        }
    }
}
