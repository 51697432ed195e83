/// What one reader's copy of an article page depends on, read in one statement: whether the
/// article is published (nothing else of it: a page served from the cache needs no more, and one
/// being rendered reads it whole), whether the reader likes it and whether they commented on it.
/// A logged-in reader's page view is then one query, not three.
extension ArticleStore {
    public struct ReaderState: Sendable, Equatable {
        public let articleID: Int
        public let isDraft: Bool
        /// When it was (or is scheduled to be) published.
        public let publishedAt: Int
        public let liked: Bool
        public let hasOwnComments: Bool

        /// Whether readers may see it at `now` (as `Article.isPublished(at:)`).
        public func isPublished(at now: Int) -> Bool {
            Article.state(isDraft: isDraft, publishedAt: publishedAt, at: now) == .published
        }
    }

    public func readerState(slug: String, userID: Int) throws -> ReaderState? {
        let row = try database.withConnection { connection in
            try connection.query(
                """
                SELECT articles.id, articles.draft, articles.published_at,
                  CASE WHEN EXISTS (SELECT 1 FROM likes WHERE likes.user_id = ? AND likes.article_id = articles.id)
                    THEN 1 ELSE 0 END,
                  CASE WHEN EXISTS (SELECT 1 FROM comments
                    WHERE comments.article_id = articles.id AND comments.user_id = ?) THEN 1 ELSE 0 END
                FROM articles WHERE slug = ?
                """, [.integer(Int64(userID)), .integer(Int64(userID)), .text(slug)]
            ).first
        }
        guard let row else { return nil }
        return ReaderState(
            articleID: row.int(0), isDraft: row.int(1) != 0, publishedAt: row.int(2), liked: row.int(3) != 0,
            hasOwnComments: row.int(4) != 0)
    }
}
