import Foundation
import Synchronization
import TextSupport

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
    /// holds "har"), so the index is asked only for each word's rarest trigram — the one fewest
    /// articles hold, by `articles_search_terms` — all of them at once (`AND`; a word's trigram
    /// much more common than the query's rarest costs more to intersect than it saves, and is
    /// left to the check), and the rows it gives, newest first, are checked for every word as a
    /// substring; the first 1,000 that hold them all are ranked, and only the page's rows are read
    /// whole. A word is checked field by field with `LIKE`, which folds ASCII case as `lower()`
    /// does but stops at the first match and copies nothing (`instr(lower(title || …))` lowered a
    /// copy of every candidate's whole text: 2.5× slower). Words shorter than a trigram only
    /// filter. A word whose trigrams the index folds differently from here (some non-ASCII
    /// capitals) is matched as a whole phrase instead. `CROSS JOIN` keeps the index as the outer
    /// loop: with bound parameters the planner otherwise read every article in date order and
    /// asked the index about each one (30 ms instead of 2).
    private static func sqlite(
        _ words: [String], limit: Int, offset: Int, now: Int,
        counts: (String, any SQLConnection) throws -> Int, _ connection: any SQLConnection
    ) throws -> [SQLRow] {
        let checks = words.map(SubstringCheck.init)
        let filters = checks.map { check in
            " AND (\(check.sql("articles.title")) OR \(check.sql("articles.summary")) OR \(check.sql("articles.body")))"
        }.joined()
        let filterValues = checks.flatMap { [$0.value, $0.value, $0.value] }
        let titleHits = checks.map { "(\($0.sql("articles.title")))" }.joined(separator: " + ")
        let patterns = checks.map(\.value)
        let paging: [SQLValue] = [.integer(Int64(limit)), .integer(Int64(offset))]
        guard let match = try rarestTrigramsMatch(words, counts: { try counts($0, connection) }) else {
            // Only short words: the newest published articles holding them, read in date order.
            return try connection.query(
                """
                SELECT \(Article.columns) FROM articles WHERE \(ArticleStore.published)\(filters)
                ORDER BY articles.published_at DESC, articles.id DESC LIMIT ? OFFSET ?
                """, [.integer(Int64(now))] + filterValues + paging)
        }
        return try connection.query(
            """
            SELECT \(Article.columns) FROM (
                SELECT id, hits, published FROM (
                    SELECT articles.id AS id, \(titleHits) AS hits, articles.published_at AS published
                    FROM articles_search CROSS JOIN articles ON articles.id = articles_search.rowid
                    WHERE articles_search MATCH ? AND \(ArticleStore.published)\(filters)
                    ORDER BY articles_search.rowid DESC LIMIT ?
                ) AS matches ORDER BY hits DESC, published DESC, id DESC LIMIT ? OFFSET ?
            ) AS page JOIN articles ON articles.id = page.id
            ORDER BY page.hits DESC, page.published DESC, page.id DESC
            """,
            patterns + [.text(match), .integer(Int64(now))] + filterValues + [.integer(Int64(rankedCandidates))]
                + paging)
    }

    /// Whether a field holds a word, ignoring ASCII case (as SQLite's `lower()` folds): `LIKE`,
    /// unless the word holds a NUL, where a `LIKE` pattern would end; then `instr` on a lower-cased
    /// copy. The unary `+` keeps the planner from looking at the pattern: a bound `LIKE` pattern
    /// in a `WHERE` clause otherwise has SQLite prepare the whole statement again each time it is
    /// bound to another word (its prefix optimization, of no use with a leading `%`).
    private struct SubstringCheck {
        let value: SQLValue
        private let like: Bool

        init(_ word: String) {
            like = !word.unicodeScalars.contains("\0")
            value = .text(like ? "%" + SearchStore.likeEscaped(word) + "%" : SearchStore.asciiLowercased(word))
        }

        func sql(_ field: String) -> String {
            like ? "+(\(field) LIKE ? ESCAPE '\\')" : "instr(lower(\(field)), ?) > 0"
        }
    }

    /// A word's trigram this many times more common than the query's rarest is not asked of the
    /// index: intersecting a long list (every article holds "har") costs more than checking the
    /// few extra rows it would rule out.
    static let intersectedTrigramRatio = 8

    /// The FTS5 query that finds a superset of the answer: the rarest trigram of each word (those
    /// not much more common than the rarest of all), all required; nil when no word is long
    /// enough to have one.
    private static func rarestTrigramsMatch(_ words: [String], counts: (String) throws -> Int) throws -> String? {
        var chosen: [(phrase: String, articles: Int)] = []
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
            if !chosen.contains(where: { $0.phrase == phrase }) { chosen.append((phrase, rarest.articles)) }
        }
        guard let fewest = chosen.map(\.articles).min() else { return nil }
        return chosen.filter { $0.articles <= max(fewest, 1) * intersectedTrigramRatio }
            .map { "\"" + $0.phrase.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            .joined(separator: " AND ")
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

    /// `%`, `_` and `\` taken literally in a LIKE pattern. Scalar by scalar: a `%` followed by a
    /// combining mark is one Character, not equal to "%", yet still a wildcard to the database.
    static func likeEscaped(_ word: String) -> String {
        var escaped = String.UnicodeScalarView()
        for scalar in word.unicodeScalars {
            if scalar == "%" || scalar == "_" || scalar == "\\" { escaped.append("\\") }
            escaped.append(scalar)
        }
        return String(escaped)
    }

    static func asciiLowercased(_ word: String) -> String {
        String(
            String.UnicodeScalarView(
                word.unicodeScalars.map { scalar in
                    (65...90).contains(scalar.value) ? Unicode.Scalar(scalar.value + 32) ?? scalar : scalar
                }))
    }
}
