import Foundation
import HTTP
import Synchronization

/// Searches published articles for every word of a query, through the database's own index
/// (`SearchIndex`). Words are matched as substrings, case-insensitively, in title, summary or
/// body; nothing in a word is query syntax (quotes, `*`, `NEAR`, `-`, `:`, parentheses are text).
final class SearchStore: Sendable {
    /// Words the trigram indexes can answer; shorter ones filter the rows the others found.
    static let indexedWordCharacters = 3

    private let database: Database
    /// How many articles hold each trigram, as last read: FTS5 counts them by walking the term's
    /// whole list (3 ms for one every article holds), and a count a few minutes old still points
    /// at the rarest trigram. Only speed depends on it, never which articles are found.
    private let trigramCounts = Mutex<[String: (articles: Int, readAt: Int64)]>([:])
    static let trigramCountSeconds: Int64 = 600
    static let trigramCountEntries = 20_000

    init(database: Database) {
        self.database = database
    }

    /// One page of published articles (with bodies, for snippets) holding every word, best first,
    /// and whether another page follows. `words` is not empty.
    func search(_ words: [String], page: Int, size: Int, now: Int) throws -> (articles: [Article], hasMore: Bool) {
        let rows = try database.withConnection { connection in
            switch database.dialect {
            case .sqlite:
                try Self.sqlite(
                    words, limit: size + 1, offset: (page - 1) * size, now: now, counts: trigramCount, connection)
            case .postgres: try Self.postgres(words, limit: size + 1, offset: (page - 1) * size, now: now, connection)
            }
        }
        return (rows.prefix(size).map(Article.init(row:)), rows.count > size)
    }

    private static let text = "lower(articles.title || ' ' || articles.summary || ' ' || articles.body)"

    /// How many of the newest matches are ranked (by how many words their title holds): fifty
    /// pages of 20. Ranking every match with bm25 needs each phrase's document frequency, a pass
    /// over every row holding a common word: 400 ms for two words at 100,000 articles.
    static let rankedCandidates = 1000

    /// SQLite. A trigram phrase is as slow as its most common trigram ("harbour": every article
    /// holds "har"), so the index is asked only for the query's rarest trigram — the one fewest
    /// articles hold, by `articles_search_terms` — and the rows it gives, newest first, are checked
    /// for every word as a substring; the first 1,000 that hold them all are ranked. Words shorter
    /// than a trigram only filter. A word whose trigrams the index folds differently from here
    /// (some non-ASCII capitals) is matched as a whole phrase instead. `CROSS JOIN` keeps the index
    /// as the outer loop: with bound parameters the planner otherwise read every article in date
    /// order and asked the index about each one (30 ms instead of 2).
    private static func sqlite(
        _ words: [String], limit: Int, offset: Int, now: Int,
        counts: (String, any SQLConnection) throws -> Int, _ connection: any SQLConnection
    ) throws -> [SQLRow] {
        // SQLite's lower() folds ASCII only; the words are lower-cased the same way.
        let lowered = words.map { SQLValue.text(asciiLowercased($0)) }
        let filters = words.map { _ in " AND instr(\(text), ?) > 0" }.joined()
        let titleHits = words.map { _ in "(instr(lower(articles.title), ?) > 0)" }.joined(separator: " + ")
        let paging: [SQLValue] = [.integer(Int64(limit)), .integer(Int64(offset))]
        guard let match = try rarestTrigramMatch(words, counts: { try counts($0, connection) }) else {
            // Only short words: the newest published articles holding them, read in date order.
            return try connection.query(
                """
                SELECT \(Article.columns) FROM articles WHERE \(ArticleStore.published)\(filters)
                ORDER BY articles.published_at DESC, articles.id DESC LIMIT ? OFFSET ?
                """, [.integer(Int64(now))] + lowered + paging)
        }
        return try connection.query(
            """
            SELECT \(Article.columns) FROM (
                SELECT articles.id AS id FROM articles_search CROSS JOIN articles ON articles.id = articles_search.rowid
                WHERE articles_search MATCH ? AND \(ArticleStore.published)\(filters)
                ORDER BY articles_search.rowid DESC LIMIT ?
            ) AS matches JOIN articles ON articles.id = matches.id
            ORDER BY \(titleHits) DESC, articles.published_at DESC, articles.id DESC LIMIT ? OFFSET ?
            """,
            [.text(match), .integer(Int64(now))] + lowered + [.integer(Int64(rankedCandidates))] + lowered + paging)
    }

    /// The FTS5 query that finds a superset of the answer from the rarest trigram of the words;
    /// nil when no word is long enough to have one.
    private static func rarestTrigramMatch(_ words: [String], counts: (String) throws -> Int) throws -> String? {
        var best: (phrase: String, articles: Int)?
        for word in words {
            let scalars = Array(word.lowercased().unicodeScalars)
            guard scalars.count >= indexedWordCharacters else { continue }
            var rarest: (trigram: String, articles: Int)?
            for start in 0...(scalars.count - indexedWordCharacters) {
                let trigram = String(String.UnicodeScalarView(scalars[start..<(start + indexedWordCharacters)]))
                let count = try counts(trigram)
                if count < (rarest?.articles ?? Int.max) { rarest = (trigram, count) }
            }
            guard let rarest else { continue }
            // No article holds it as folded here: the index may fold this word otherwise, so the
            // whole word is asked for (it finds what the index's folding finds).
            let phrase = rarest.articles > 0 ? rarest.trigram : word
            if rarest.articles < (best?.articles ?? Int.max) { best = (phrase, rarest.articles) }
        }
        return best.map { "\"" + $0.phrase.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
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

    /// How many articles hold `trigram`, from the cache when read in the last ten minutes.
    private func trigramCount(_ trigram: String, _ connection: any SQLConnection) throws -> Int {
        let now = monotonicMicroseconds() / 1_000_000
        if let cached = trigramCounts.withLock({ $0[trigram] }), now - cached.readAt < Self.trigramCountSeconds {
            return cached.articles
        }
        let count =
            try connection.query("SELECT doc FROM articles_search_terms WHERE term = ?", [.text(trigram)]).first?.int(0)
            ?? 0
        trigramCounts.withLock { counts in
            if counts.count >= Self.trigramCountEntries { counts.removeAll(keepingCapacity: true) }
            counts[trigram] = (count, now)
        }
        return count
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
