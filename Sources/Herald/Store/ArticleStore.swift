/// Articles in SQL, behind a Swift API the services use. Knows nothing of HTTP or views.
public final class ArticleStore: Sendable {
    let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// What readers may see at a given time: no drafts, nothing scheduled for later.
    static let published = "articles.draft = 0 AND articles.published_at <= ?"

    /// One page of the front page (or of one section), newest first, plus whether an older page
    /// exists. Reads `size + 1` rows instead of counting the table: no full scan per request.
    public func page(_ number: Int, size: Int, now: Int, section: String? = nil) throws -> (
        articles: [Article], hasOlder: Bool
    ) {
        let offset = (number - 1) * size
        let rows = try database.withConnection { connection in
            if let section {
                return try connection.query(
                    """
                    SELECT \(Article.listColumns) FROM articles WHERE section_slug = ? AND \(Self.published)
                    ORDER BY published_at DESC, id DESC LIMIT ? OFFSET ?
                    """,
                    [.text(section), .integer(Int64(now)), .integer(Int64(size + 1)), .integer(Int64(offset))])
            }
            return try connection.query(
                """
                SELECT \(Article.listColumns) FROM articles WHERE \(Self.published)
                ORDER BY published_at DESC, id DESC LIMIT ? OFFSET ?
                """, [.integer(Int64(now)), .integer(Int64(size + 1)), .integer(Int64(offset))])
        }
        let articles = rows.prefix(size).map(Article.init(row:))
        return (articles, rows.count > size)
    }

    /// The newest `limit` published articles (of one section) with their bodies, for feeds.
    public func newest(limit: Int, now: Int, section: String? = nil) throws -> [Article] {
        try database.withConnection { connection in
            if let section {
                return try connection.query(
                    """
                    SELECT \(Article.columns) FROM articles WHERE section_slug = ? AND \(Self.published)
                    ORDER BY published_at DESC, id DESC LIMIT ?
                    """, [.text(section), .integer(Int64(now)), .integer(Int64(limit))])
            }
            return try connection.query(
                "SELECT \(Article.columns) FROM articles WHERE \(Self.published) ORDER BY published_at DESC, id DESC LIMIT ?",
                [.integer(Int64(now)), .integer(Int64(limit))])
        }.map(Article.init(row:))
    }

    /// The article at `slug` in any state: callers decide who may see a draft.
    public func article(slug: String) throws -> Article? {
        try database.withConnection { connection in
            try connection.query("SELECT \(Article.columns) FROM articles WHERE slug = ?", [.text(slug)])
        }.first.map(Article.init(row:))
    }

    public func slug(id: Int) throws -> String? {
        try database.withConnection { connection in
            try connection.query("SELECT slug FROM articles WHERE id = ?", [.integer(Int64(id))])
        }.first?.string(0)
    }

    public func isEmpty() throws -> Bool {
        try database.withConnection { try $0.query("SELECT 1 FROM articles LIMIT 1").isEmpty }
    }

    public enum ImportOutcome: Sendable, Equatable { case added, updated, unchanged }

    /// Adds or updates a batch in one transaction: all of it lands, or none. `now` (seconds since
    /// 1970, from the app's `Clock`) is stored as the changed articles' `updated_at`.
    public func importArticles(_ incoming: [IncomingArticle], now: Int) throws -> [ImportOutcome] {
        try database.write { connection in
            try incoming.map { try Self.upsert($0, now: Int64(now), connection) }
        }
    }

    private static func upsert(
        _ article: IncomingArticle, now: Int64, _ connection: any SQLConnection
    ) throws -> ImportOutcome {
        let existing = try connection.query(
            "SELECT \(Article.columns) FROM articles WHERE source_id = ?", [.text(article.sourceID)]
        ).first.map(Article.init(row:))
        if let existing, existing.matches(article) { return .unchanged }
        let section = try SectionStore.resolve(article.section, connection)
        if let existing {
            try connection.query(
                """
                UPDATE articles SET title = ?, summary = ?, body = ?, author = ?, section = ?, section_slug = ?,
                published_at = ?, original_url = ?, updated_at = ?, language = ? WHERE id = ?
                """,
                [
                    .text(article.title), .text(article.summary), .text(article.body), .text(article.author),
                    .text(section?.name ?? ""), .text(section?.slug ?? ""), .integer(Int64(article.publishedAt)),
                    .text(article.originalURL), .integer(now), article.language.map { .text($0) } ?? .null,
                    .integer(Int64(existing.id)),
                ])
            return .updated
        }
        let slug = try newSlug(for: article.title, connection)
        let rows = try connection.query(
            """
            INSERT INTO articles (slug, source_id, title, summary, body, author, section, section_slug, published_at,
            original_url, updated_at, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id
            """,
            [
                .text(slug), .text(article.sourceID), .text(article.title), .text(article.summary),
                .text(article.body), .text(article.author), .text(section?.name ?? ""), .text(section?.slug ?? ""),
                .integer(Int64(article.publishedAt)), .text(article.originalURL), .integer(now),
                article.language.map { .text($0) } ?? .null,
            ])
        if let id = rows.first?.int(0) { try settleSlug(slug, id: id, connection) }
        return .added
    }
}
