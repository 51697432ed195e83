/// What one reader's copy of an article page depends on, read in one statement: the article
/// (without its body, which only a page being rendered needs), whether the reader likes it and
/// whether they commented on it. A logged-in reader's page view is then one query, not three.
extension ArticleStore {
    public struct ReaderState: Sendable, Equatable {
        /// The article without its body (`Article.listColumns`).
        public let article: Article
        public let liked: Bool
        public let hasOwnComments: Bool
    }

    public func readerState(slug: String, userID: Int) throws -> ReaderState? {
        let row = try database.withConnection { connection in
            try connection.query(
                """
                SELECT \(Article.listColumns),
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
            article: Article(row: row), liked: row.int(Article.columnCount) != 0,
            hasOwnComments: row.int(Article.columnCount + 1) != 0)
    }
}
