/// Likes in SQL. Each change updates the article's `like_count` in the same transaction,
/// so the count always equals the rows, however many readers like at once.
public final class LikeStore: Sendable {
    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// Likes `articleID` for `userID`; liking twice counts once. Returns the new count.
    @discardableResult
    public func like(userID: Int, articleID: Int, at now: Int) throws -> Int {
        try database.write { connection in
            try connection.query(
                "INSERT INTO likes (user_id, article_id, liked_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                [.integer(Int64(userID)), .integer(Int64(articleID)), .integer(Int64(now))])
            if connection.changes == 1 {
                try connection.query(
                    "UPDATE articles SET like_count = like_count + 1 WHERE id = ?", [.integer(Int64(articleID))])
            }
            return try Self.count(articleID, connection)
        }
    }

    /// Removes the like if there is one. Returns the new count.
    @discardableResult
    public func unlike(userID: Int, articleID: Int) throws -> Int {
        try database.write { connection in
            try connection.query(
                "DELETE FROM likes WHERE user_id = ? AND article_id = ?",
                [.integer(Int64(userID)), .integer(Int64(articleID))])
            if connection.changes == 1 {
                try connection.query(
                    "UPDATE articles SET like_count = like_count - 1 WHERE id = ?", [.integer(Int64(articleID))])
            }
            return try Self.count(articleID, connection)
        }
    }

    public func likes(userID: Int, articleID: Int) throws -> Bool {
        try database.withConnection { connection in
            try !connection.query(
                "SELECT 1 FROM likes WHERE user_id = ? AND article_id = ?",
                [.integer(Int64(userID)), .integer(Int64(articleID))]
            ).isEmpty
        }
    }

    /// The reader's liked articles that are published at `now`, newest like first.
    public func likedArticles(userID: Int, now: Int, limit: Int = 200) throws -> [Article] {
        try database.withConnection { connection in
            try connection.query(
                """
                SELECT \(Article.listColumns) FROM likes JOIN articles ON articles.id = likes.article_id
                WHERE likes.user_id = ? AND \(ArticleStore.published)
                ORDER BY likes.liked_at DESC, likes.article_id DESC LIMIT ?
                """, [.integer(Int64(userID)), .integer(Int64(now)), .integer(Int64(limit))])
        }.map(Article.init(row:))
    }

    /// The number of like rows for an article (what `like_count` must equal).
    public func countRows(articleID: Int) throws -> Int {
        try database.withConnection { connection in
            try connection.query("SELECT count(*) FROM likes WHERE article_id = ?", [.integer(Int64(articleID))])
                .first?.int(0) ?? 0
        }
    }

    private static func count(_ articleID: Int, _ connection: any SQLConnection) throws -> Int {
        try connection.query("SELECT like_count FROM articles WHERE id = ?", [.integer(Int64(articleID))]).first?.int(0)
            ?? 0
    }
}
