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

    /// How many of the newest matches are ranked. Ranking every match (bm25 needs each phrase's
    /// document frequency: a pass over every row holding a common word) took 400 ms for two words
    /// at 100,000 articles; the newest 1,000 matches, read newest first from the index and ranked
    /// by how many words their title holds, take a few. Fifty pages of 20 is also 1,000.
    static let rankedCandidates = 1000

    private static func sqlite(
        _ words: [String], limit: Int, offset: Int, now: Int, _ connection: any SQLConnection
    ) throws -> [SQLRow] {
        let indexed = words.filter { $0.count >= indexedWordCharacters }
        let short = words.filter { $0.count < indexedWordCharacters }
        // SQLite's lower() folds ASCII only; the words are lower-cased the same way.
        let lowered = words.map { SQLValue.text(asciiLowercased($0)) }
        let shortFilters = short.map { _ in " AND instr(\(text), ?) > 0" }.joined()
        let shortValues = short.map { SQLValue.text(asciiLowercased($0)) }
        let titleHits = words.map { _ in "(instr(lower(articles.title), ?) > 0)" }.joined(separator: " + ")
        let paging: [SQLValue] = [.integer(Int64(limit)), .integer(Int64(offset))]
        guard !indexed.isEmpty else {
            // Only short words: the newest published articles holding them, read in date order.
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
            SELECT \(Article.columns) FROM (
                SELECT rowid AS id FROM articles_search WHERE articles_search MATCH ? ORDER BY rowid DESC LIMIT ?
            ) AS matches JOIN articles ON articles.id = matches.id
            WHERE \(ArticleStore.published)\(shortFilters)
            ORDER BY \(titleHits) DESC, articles.published_at DESC, articles.id DESC LIMIT ? OFFSET ?
            """,
            [.text(match), .integer(Int64(rankedCandidates)), .integer(Int64(now))] + shortValues + lowered + paging)
    }

    private static func postgres(
        _ words: [String], limit: Int, offset: Int, now: Int, _ connection: any SQLConnection
    ) throws -> [SQLRow] {
        let patterns = words.map { SQLValue.text("%" + likeEscaped($0.lowercased()) + "%") }
        let filters = words.map { _ in " AND \(text) LIKE ? ESCAPE '\\'" }.joined()
        let titleHits = words.map { _ in "(CASE WHEN lower(articles.title) LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END)" }
            .joined(separator: " + ")
        // Best first, as on SQLite: more of the words in the title, then the newest.
        return try connection.query(
            """
            SELECT \(Article.columns) FROM articles WHERE \(ArticleStore.published)\(filters)
            ORDER BY \(titleHits) DESC, articles.published_at DESC, articles.id DESC LIMIT ? OFFSET ?
            """,
            [.integer(Int64(now))] + patterns + patterns + [.integer(Int64(limit)), .integer(Int64(offset))])
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
