/// Likes in SQL. Each change updates the article's `like_count` in the same transaction,
/// so the count always equals the rows, however many readers like at once.
public final class LikeStore: Sendable {
    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// What a like or unlike acted on, and the article's like count right after it.
    public struct Change: Sendable, Equatable {
        public let slug: String
        public let title: String
        public let count: Int
    }

    /// Likes (idempotent: twice counts once) or unlikes the article at `slug` for the reader; nil
    /// when readers cannot see an article there at `now`. One write transaction: the article is
    /// found by the statements that change it, not read beforehand in a transaction of its own.
    public func change(slug: String, userID: Int, liked: Bool, now: Int) throws -> Change? {
        try database.write { connection in
            guard
                let article = try connection.query(
                    "SELECT id, slug, title, like_count FROM articles WHERE slug = ? AND \(ArticleStore.published)",
                    [.text(slug), .integer(Int64(now))]
                ).first
            else { return nil }
            let articleID = SQLValue.integer(Int64(article.int(0)))
            if liked {
                try connection.query(
                    "INSERT INTO likes (user_id, article_id, liked_at) VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                    [.integer(Int64(userID)), articleID, .integer(Int64(now))])
            } else {
                try connection.query(
                    "DELETE FROM likes WHERE user_id = ? AND article_id = ?", [.integer(Int64(userID)), articleID])
            }
            var count = article.int(3)
            // The count is read back rather than taken from `RETURNING`, which SQLite answers
            // through a temporary table: 30,000 instructions more a like, a tenth of the request.
            if connection.changes == 1 {
                let update =
                    liked
                    ? "UPDATE articles SET like_count = like_count + 1 WHERE id = ?"
                    : "UPDATE articles SET like_count = like_count - 1 WHERE id = ?"
                try connection.query(update, [articleID])
                count =
                    try connection.query("SELECT like_count FROM articles WHERE id = ?", [articleID]).first?.int(0)
                    ?? count
            }
            return Change(slug: article.string(1), title: article.string(2), count: count)
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
}
