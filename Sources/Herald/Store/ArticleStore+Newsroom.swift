/// What the newsroom writes to an article: everything but its id, slug, author account and counts.
struct ArticleRecord: Sendable, Equatable {
    var title: String
    var summary: String
    /// The name shown as author (the byline, else the writer's username).
    var author: String
    /// A section name; empty for none. A new name makes a new section.
    var sectionName: String
    var body: String
    var bodyHTML: String
    var image: ArticleImage?
    var isDraft: Bool
    var publishedAt: Int
    var revisedAt: Int?
    /// The article's own language (a BCP 47 tag); nil: the site's.
    var language: String? = nil
}

/// The newsroom's side of the articles table: the desk's list and writing articles.
extension ArticleStore {
    /// One line of the desk: only what the list shows, not the article's text.
    struct DeskEntry: Sendable, Equatable {
        let id: Int
        let title: String
        let section: String
        let author: String
        let isDraft: Bool
        let publishedAt: Int
        let updatedAt: Int

        func state(at now: Int) -> ArticleState { Article.state(isDraft: isDraft, publishedAt: publishedAt, at: now) }
    }

    /// One page of every article in any state (or those `filter` keeps), most recently changed
    /// first. Seven columns, not an article's twenty-two: turning rows into values was a fifth of
    /// the desk's time.
    func deskPage(_ number: Int, size: Int, filter: DeskFilter = DeskFilter(), now: Int = 0) throws -> (
        articles: [DeskEntry], hasOlder: Bool
    ) {
        var conditions: [String] = []
        var values: [SQLValue] = []
        switch filter.state {
        case .draft: conditions.append("draft = 1")
        case .scheduled:
            conditions.append("draft = 0 AND published_at > ?")
            values.append(.integer(Int64(now)))
        case .published:
            conditions.append("draft = 0 AND published_at <= ?")
            values.append(.integer(Int64(now)))
        case nil: break
        }
        if let section = filter.section {
            conditions.append("section_slug = ?")
            values.append(.text(section))
        }
        if let author = filter.author {
            conditions.append("author = ?")
            values.append(.text(author))
        }
        for word in filter.words {
            // Taken literally: LIKE's own characters are escaped.
            conditions.append("lower(title) LIKE ? ESCAPE '!'")
            values.append(.text("%" + Self.likeEscaped(word.lowercased()) + "%"))
        }
        let whereClause = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        let rows = try database.withConnection { connection in
            try connection.query(
                """
                SELECT id, title, section, author, draft, published_at, updated_at FROM articles \(whereClause)
                ORDER BY updated_at DESC, id DESC LIMIT ? OFFSET ?
                """,
                values + [.integer(Int64(size + 1)), .integer(Int64((number - 1) * size))])
        }
        let entries = rows.prefix(size).map { row in
            DeskEntry(
                id: row.int(0), title: row.string(1), section: row.string(2), author: row.string(3),
                isDraft: row.int(4) != 0, publishedAt: row.int(5), updatedAt: row.int(6))
        }
        return (entries, rows.count > size)
    }

    /// What the desk's filters can choose from: every section an article is in, every byline.
    func deskChoices() throws -> DeskChoices {
        try database.withConnection { connection in
            let sections = try connection.query(
                """
                SELECT section_slug, min(section) FROM articles WHERE section_slug <> ''
                GROUP BY section_slug ORDER BY min(section)
                """, []
            ).map { (slug: $0.string(0), name: $0.string(1)) }
            let authors = try connection.query("SELECT DISTINCT author FROM articles ORDER BY author", []).map {
                $0.string(0)
            }
            return DeskChoices(sections: sections, authors: authors)
        }
    }

    /// `text` with LIKE's `%`, `_` and the escape character `!` escaped by `!`.
    static func likeEscaped(_ text: String) -> String {
        var escaped = ""
        for character in text {
            if character == "%" || character == "_" || character == "!" { escaped.append("!") }
            escaped.append(character)
        }
        return escaped
    }

    func article(id: Int) throws -> Article? {
        try database.withConnection { connection in
            try Self.article(id: id, connection)
        }
    }

    private static func article(id: Int, _ connection: any SQLConnection) throws -> Article? {
        try connection.query("SELECT \(Article.columns) FROM articles WHERE id = ?", [.integer(Int64(id))]).first.map(
            Article.init(row:))
    }

    /// A new article written by `authorID`, with `newImage` stored alongside when there is one.
    func insert(_ record: ArticleRecord, authorID: Int, newImage: MediaFile?, now: Int) throws -> Article {
        try database.write { connection in
            if let newImage { try MediaStore.insert(newImage, now: now, connection) }
            let section = try SectionStore.resolve(record.sectionName, connection)
            let slug = try Self.newSlug(for: record.title, connection)
            let rows = try connection.query(
                """
                INSERT INTO articles (slug, title, summary, body, author, section, section_slug, published_at,
                updated_at, draft, slug_fixed, author_id, body_html, revised_at, image_name, image_width,
                image_height, image_alt, language) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
                RETURNING id
                """,
                [.text(slug)] + Self.values(record, section: section, now: now) + [
                    .integer(record.isDraft ? 0 : 1), .integer(Int64(authorID)), .text(record.bodyHTML),
                    record.revisedAt.map { .integer(Int64($0)) } ?? .null,
                ] + Self.imageValues(record.image) + [record.language.map { .text($0) } ?? .null])
            guard let id = rows.first?.int(0) else { throw StoreError.failed("the new article was not stored") }
            try Self.settleSlug(slug, id: id, connection)
            guard let article = try Self.article(id: id, connection) else {
                throw StoreError.failed("the new article was not stored")
            }
            return article
        }
    }

    /// Writes `record` over the article `id`; nil when there is no such article. A draft that was
    /// never published takes its slug from its (new) title; from the first publication on, the
    /// slug stays. An image no article shows any more is deleted.
    func update(id: Int, _ record: ArticleRecord, newImage: MediaFile?, now: Int) throws -> Article? {
        try database.write { connection in
            guard let current = try Self.article(id: id, connection) else { return nil }
            if let newImage { try MediaStore.insert(newImage, now: now, connection) }
            let section = try SectionStore.resolve(record.sectionName, connection)
            let slug =
                current.slugIsFixed || current.title == record.title
                ? current.slug
                : try Self.uniqueSlug(
                    from: Slug.make(from: record.title) ?? String(id), except: id, connection)
            try connection.query(
                """
                UPDATE articles SET slug = ?, title = ?, summary = ?, body = ?, author = ?, section = ?,
                section_slug = ?, published_at = ?, updated_at = ?, draft = ?, slug_fixed = ?, body_html = ?,
                revised_at = ?, image_name = ?, image_width = ?, image_height = ?, image_alt = ?, language = ?
                WHERE id = ?
                """,
                [.text(slug)] + Self.values(record, section: section, now: now) + [
                    .integer(current.slugIsFixed || !record.isDraft ? 1 : 0), .text(record.bodyHTML),
                    record.revisedAt.map { .integer(Int64($0)) } ?? .null,
                ] + Self.imageValues(record.image) + [
                    record.language.map { .text($0) } ?? .null, .integer(Int64(id)),
                ])
            if let previous = current.image?.name, previous != record.image?.name {
                try MediaStore.deleteIfUnused(previous, connection)
            }
            return try Self.article(id: id, connection)
        }
    }

    /// title, summary, body, author, section, section_slug, published_at, updated_at, draft.
    private static func values(_ record: ArticleRecord, section: Section?, now: Int) -> [SQLValue] {
        [
            .text(record.title), .text(record.summary), .text(record.body), .text(record.author),
            .text(section?.name ?? ""), .text(section?.slug ?? ""), .integer(Int64(record.publishedAt)),
            .integer(Int64(now)), .integer(record.isDraft ? 1 : 0),
        ]
    }

    private static func imageValues(_ image: ArticleImage?) -> [SQLValue] {
        [
            .text(image?.name ?? ""), .integer(Int64(image?.width ?? 0)), .integer(Int64(image?.height ?? 0)),
            .text(image?.alt ?? ""),
        ]
    }
}

/// The articles a sitemap lists.
extension ArticleStore {
    /// How many articles readers can see at `now`.
    func publishedCount(now: Int) throws -> Int {
        try database.withConnection { connection in
            try connection.query(
                "SELECT count(*) FROM articles WHERE \(Self.published)", [.integer(Int64(now))]
            ).first?.int(0) ?? 0
        }
    }

    /// Published articles by id (a stable order for numbered sitemap files): slug and when each
    /// last changed for readers.
    func sitemapEntries(offset: Int, limit: Int, now: Int) throws -> [(slug: String, lastModified: Int)] {
        try database.withConnection { connection in
            try connection.query(
                """
                SELECT slug, published_at, revised_at FROM articles WHERE \(Self.published)
                ORDER BY id LIMIT ? OFFSET ?
                """, [.integer(Int64(now)), .integer(Int64(limit)), .integer(Int64(offset))])
        }.map { row in (row.string(0), max(row.int(1), row.optionalInt(2) ?? 0)) }
    }
}
