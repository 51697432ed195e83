#if canImport(Glibc)
    import Glibc
#endif

/// Articles in SQL, behind a Swift API the services use. Knows nothing of HTTP or views.
public final class ArticleStore: Sendable {
    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    private static let listColumns =
        "id, slug, title, summary, '', author, section, published_at, like_count, comment_count"
    private static let allColumns =
        "id, slug, title, summary, body, author, section, published_at, like_count, comment_count"

    /// One page of the front page, newest first, plus whether an older page exists.
    /// Reads `size + 1` rows instead of counting the table: no full scan per request.
    public func page(_ number: Int, size: Int) throws -> (articles: [Article], hasOlder: Bool) {
        let offset = (number - 1) * size
        let rows = try database.withConnection { connection in
            try connection.query(
                "SELECT \(Self.listColumns) FROM articles ORDER BY published_at DESC, id DESC LIMIT ? OFFSET ?",
                [.integer(Int64(size + 1)), .integer(Int64(offset))])
        }
        let articles = rows.prefix(size).map(Self.article)
        return (articles, rows.count > size)
    }

    /// The newest `limit` articles with their bodies (for the Atom feed).
    public func newest(limit: Int) throws -> [Article] {
        try database.withConnection { connection in
            try connection.query(
                "SELECT \(Self.allColumns) FROM articles ORDER BY published_at DESC, id DESC LIMIT ?",
                [.integer(Int64(limit))])
        }.map(Self.article)
    }

    public func article(slug: String) throws -> Article? {
        try database.withConnection { connection in
            try connection.query("SELECT \(Self.allColumns) FROM articles WHERE slug = ?", [.text(slug)])
        }.first.map(Self.article)
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

    /// Adds or updates a batch in one transaction: all of it lands, or none.
    public func importArticles(_ incoming: [IncomingArticle]) throws -> [ImportOutcome] {
        try database.write { connection in
            try incoming.map { try Self.upsert($0, connection) }
        }
    }

    private static func upsert(_ article: IncomingArticle, _ connection: any SQLConnection) throws -> ImportOutcome {
        let now = Int64(time(nil))
        let existing = try connection.query(
            "SELECT id, title, summary, body, author, section, published_at FROM articles WHERE source_id = ?",
            [.text(article.sourceID)]
        ).first
        if let existing {
            let same =
                existing.string(1) == article.title && existing.string(2) == article.summary
                && existing.string(3) == article.body && existing.string(4) == article.author
                && existing.string(5) == article.section && existing.int(6) == article.publishedAt
            if same { return .unchanged }
            try connection.query(
                """
                UPDATE articles SET title = ?, summary = ?, body = ?, author = ?, section = ?, published_at = ?,
                updated_at = ? WHERE id = ?
                """,
                [
                    .text(article.title), .text(article.summary), .text(article.body), .text(article.author),
                    .text(article.section), .integer(Int64(article.publishedAt)), .integer(now),
                    .integer(Int64(existing.int(0))),
                ])
            return .updated
        }
        let slug = try uniqueSlug(for: article.title, connection)
        try connection.query(
            """
            INSERT INTO articles (slug, source_id, title, summary, body, author, section, published_at, updated_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """,
            [
                .text(slug), .text(article.sourceID), .text(article.title), .text(article.summary),
                .text(article.body), .text(article.author), .text(article.section),
                .integer(Int64(article.publishedAt)), .integer(now),
            ])
        return .added
    }

    /// The title's slug, with `-2`, `-3`… appended until no article has it.
    private static func uniqueSlug(for title: String, _ connection: any SQLConnection) throws -> String {
        let base = Slug.make(from: title)
        var candidate = base
        var suffix = 2
        while try !connection.query("SELECT 1 FROM articles WHERE slug = ?", [.text(candidate)]).isEmpty {
            candidate = "\(base)-\(suffix)"
            suffix += 1
        }
        return candidate
    }

    static func article(_ row: SQLRow) -> Article {
        Article(
            id: row.int(0), slug: row.string(1), title: row.string(2), summary: row.string(3), body: row.string(4),
            author: row.string(5), section: row.string(6), publishedAt: row.int(7), likeCount: row.int(8),
            commentCount: row.int(9))
    }
}
