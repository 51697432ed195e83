import Foundation

/// Searches published articles for every word of a query, through the database's own index
/// (`SearchIndex`). Words are matched as substrings, case-insensitively, in title, summary or
/// body; nothing in a word is query syntax (quotes, `*`, `NEAR`, `-`, `:`, parentheses are text).
final class SearchStore: Sendable {
    /// Words the trigram indexes can answer; shorter ones filter the rows the others found.
    static let indexedWordCharacters = 3

    private let database: Database

    init(database: Database) {
        self.database = database
    }

    /// One page of published articles (with bodies, for snippets) holding every word, best first,
    /// and whether another page follows. `words` is not empty.
    func search(_ words: [String], page: Int, size: Int, now: Int) throws -> (articles: [Article], hasMore: Bool) {
        let rows = try database.withConnection { connection in
            switch database.dialect {
            case .sqlite: try Self.sqlite(words, limit: size + 1, offset: (page - 1) * size, now: now, connection)
            case .postgres: try Self.postgres(words, limit: size + 1, offset: (page - 1) * size, now: now, connection)
            }
        }
        return (rows.prefix(size).map(Article.init(row:)), rows.count > size)
    }

    private static let text = "lower(articles.title || ' ' || articles.summary || ' ' || articles.body)"

    private static func sqlite(
        _ words: [String], limit: Int, offset: Int, now: Int, _ connection: any SQLConnection
    ) throws -> [SQLRow] {
        let indexed = words.filter { $0.count >= indexedWordCharacters }
        let short = words.filter { $0.count < indexedWordCharacters }
        // SQLite's lower() folds ASCII only; short words are lower-cased the same way.
        let shortFilters = short.map { _ in " AND instr(\(text), ?) > 0" }.joined()
        let shortValues = short.map { SQLValue.text(asciiLowercased($0)) }
        let paging: [SQLValue] = [.integer(Int64(limit)), .integer(Int64(offset))]
        guard !indexed.isEmpty else {
            return try connection.query(
                """
                SELECT \(Article.columns) FROM articles WHERE \(ArticleStore.published)\(shortFilters)
                ORDER BY articles.published_at DESC, articles.id DESC LIMIT ? OFFSET ?
                """, [.integer(Int64(now))] + shortValues + paging)
        }
        // Each word a quoted phrase: inside quotes FTS5 reads nothing as syntax ("" is a quote).
        let match = indexed.map { "\"" + $0.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            .joined(separator: " AND ")
        return try connection.query(
            """
            SELECT \(Article.columns) FROM articles_search JOIN articles ON articles.id = articles_search.rowid
            WHERE articles_search MATCH ? AND \(ArticleStore.published)\(shortFilters)
            ORDER BY bm25(articles_search, 10.0, 4.0, 1.0), articles.published_at DESC LIMIT ? OFFSET ?
            """, [.text(match), .integer(Int64(now))] + shortValues + paging)
    }

    private static func postgres(
        _ words: [String], limit: Int, offset: Int, now: Int, _ connection: any SQLConnection
    ) throws -> [SQLRow] {
        let patterns = words.map { SQLValue.text("%" + likeEscaped($0.lowercased()) + "%") }
        let filters = words.map { _ in " AND \(text) LIKE ? ESCAPE '\\'" }.joined()
        // Best first: articles whose title holds the first word, then the newest.
        return try connection.query(
            """
            SELECT \(Article.columns) FROM articles WHERE \(ArticleStore.published)\(filters)
            ORDER BY (CASE WHEN lower(articles.title) LIKE ? ESCAPE '\\' THEN 0 ELSE 1 END),
            articles.published_at DESC, articles.id DESC LIMIT ? OFFSET ?
            """,
            [.integer(Int64(now))] + patterns + [patterns[0], .integer(Int64(limit)), .integer(Int64(offset))])
    }

    /// `%`, `_` and `\` taken literally in a LIKE pattern.
    static func likeEscaped(_ word: String) -> String {
        var escaped = ""
        for character in word {
            if character == "%" || character == "_" || character == "\\" { escaped.append("\\") }
            escaped.append(character)
        }
        return escaped
    }

    static func asciiLowercased(_ word: String) -> String {
        String(String.UnicodeScalarView(word.unicodeScalars.map { scalar in
            (65...90).contains(scalar.value) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
        }))
    }
}
