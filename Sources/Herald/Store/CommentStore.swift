/// Comments in SQL; each change updates the article's `comment_count` in the same transaction.
public final class CommentStore: Sendable {
    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Adds a comment and returns its id.
    public func add(articleID: Int, userID: Int, body: String, at now: Int) throws -> Int {
        try database.write { connection in
            let id =
                try connection.query(
                    "INSERT INTO comments (article_id, user_id, body, created_at) VALUES (?, ?, ?, ?) RETURNING id",
                    [.integer(Int64(articleID)), .integer(Int64(userID)), .text(body), .integer(Int64(now))]
                ).first?.int(0) ?? 0
            try connection.query(
                "UPDATE articles SET comment_count = comment_count + 1 WHERE id = ?", [.integer(Int64(articleID))])
            return id
        }
    }

    /// An article's comments, oldest first.
    public func comments(articleID: Int, limit: Int = 500) throws -> [Comment] {
        try database.withConnection { connection in
            try connection.query(
                "\(Comment.selection) WHERE comments.article_id = ? ORDER BY comments.id LIMIT ?",
                [.integer(Int64(articleID)), .integer(Int64(limit))])
        }.map(Comment.init(row:))
    }

    /// Whether `userID` has a comment under the article (their view of it then has delete forms).
    public func hasComment(byUserID userID: Int, articleID: Int) throws -> Bool {
        try database.withConnection { connection in
            try !connection.query(
                "SELECT 1 FROM comments WHERE article_id = ? AND user_id = ? LIMIT 1",
                [.integer(Int64(articleID)), .integer(Int64(userID))]
            ).isEmpty
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
                "SELECT article_id, hidden FROM comments WHERE id = ? AND user_id = ?",
                [.integer(Int64(id)), .integer(Int64(userID))]
            ).first
            guard let row else { return false }
            try connection.query("DELETE FROM comments WHERE id = ?", [.integer(Int64(id))])
            if row.int(1) == 0 {
                try connection.query(
                    "UPDATE articles SET comment_count = comment_count - 1 WHERE id = ?", [.integer(Int64(row.int(0)))])
            }
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
