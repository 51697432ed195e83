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
    /// About how many articles there are (the highest id: deleted ones are few), read at most
    /// every ten minutes like the trigram counts: only which way a query runs depends on it.
    private let articleTotal = Mutex<(articles: Int, readAt: Int64)?>(nil)
    static let trigramCountSeconds: Int64 = 600
    static let trigramCountEntries = 20_000

    init(database: Database) {
        self.database = database
    }

    /// A page of what a search found.
    struct Found {
        /// With their bodies, for snippets; best first.
        var articles: [Article]
        var hasMore: Bool
        /// How many published articles hold every word, counted up to `countLimit`: that many
        /// means "at least".
        var matches: Int
        var countLimit: Int
    }

    /// One page of published articles holding every word, best first, whether another page
    /// follows, and how many match. `words` is not empty.
    func search(_ words: [String], page: Int, size: Int, now: Int) throws -> Found {
        let (rows, counted, countLimit) = try database.withConnection { connection in
            switch database.dialect {
            case .sqlite:
                try Self.sqlite(
                    words, limit: size + 1, offset: (page - 1) * size, now: now, counts: trigramCount,
                    total: articleCount, connection)
            case .postgres: try Self.postgres(words, limit: size + 1, offset: (page - 1) * size, now: now, connection)
            }
        }
        // The page's rows carry the count (a window over the ranked candidates) after the columns.
        let matches = counted ?? rows.first.map { $0.int(Article.columnCount) } ?? 0
        return Found(
            articles: rows.prefix(size).map(Article.init(row:)), hasMore: rows.count > size, matches: matches,
            countLimit: countLimit)
    }

    private static let text = "lower(articles.title || ' ' || articles.summary || ' ' || articles.body)"

    /// How many of the newest matches are ranked (by how many words their title holds): fifty
    /// pages of 20. Ranking every match with bm25 needs each phrase's document frequency, a pass
    /// over every row holding a common word: 400 ms for two words at 100,000 articles.
    static let rankedCandidates = 1000

    /// SQLite. A trigram phrase is as slow as its most common trigram ("harbour": every article
    /// holds "har"), so the index is asked only for each word's rarest part — its rarest trigram,
    /// by `articles_search_terms`, and the trigrams next to it that are nearly as rare
    /// (`rarestTrigramsMatch`) — all words at once (`AND`; a word much more common than the
    /// query's rarest costs more to intersect than it saves, and is left to the check), and the
    /// rows it gives, newest first, are checked for every word as a substring; the first 1,000
    /// that hold them all are counted and ranked, and only the page's rows are read whole. A query
    /// whose rarest part is common reads the articles in date order instead. A word is checked
    /// field by field with `LIKE`, which folds ASCII case as `lower()` does but stops at the
    /// first match and copies nothing (`instr(lower(title || …))` lowered a
    /// copy of every candidate's whole text: 2.5× slower). Words shorter than a trigram only
    /// filter. A word whose trigrams the index folds differently from here (some non-ASCII
    /// capitals) is matched as a whole phrase instead. `CROSS JOIN` keeps the index as the outer
    /// loop: with bound parameters the planner otherwise read every article in date order and
    /// asked the index about each one (30 ms instead of 2).
    private static func sqlite(
        _ words: [String], limit: Int, offset: Int, now: Int, counts: (String, any SQLConnection) throws -> Int,
        total: (any SQLConnection) throws -> Int, _ connection: any SQLConnection
    ) throws -> (rows: [SQLRow], matches: Int?, countLimit: Int) {
        let checks = words.map(SubstringCheck.init)
        let filters = checks.map { check in
            " AND (\(check.sql("articles.title")) OR \(check.sql("articles.summary")) OR \(check.sql("articles.body")))"
        }.joined()
        let filterValues = checks.flatMap { [$0.value, $0.value, $0.value] }
        let titleHits = checks.map { "(\($0.sql("articles.title")))" }.joined(separator: " + ")
        let patterns = checks.map(\.value)
        let paging: [SQLValue] = [.integer(Int64(limit)), .integer(Int64(offset))]
        // Where the candidates come from: the index, newest first, or — when even the query's
        // rarest part is in a quarter of the articles or more ("council") — the articles
        // themselves in date order, where the first 1,000 matches come after a few thousand rows
        // at most; the index would hand over its whole list for such a trigram first. A short
        // word (北京, "AI") says nothing of how common it is, so with no index to narrow the rows
        // a query holding one is read newest first, not ranked (`shortWords`).
        let match = try rarestTrigramsMatch(words, counts: { try counts($0, connection) })
        var useIndex = false
        if let match { useIndex = try match.articles * commonTrigramShare < total(connection) }
        let hasShortWord = words.contains { $0.lowercased().unicodeScalars.count < indexedWordCharacters }
        guard let match, useIndex || !hasShortWord else {
            return try shortWords(
                filters: filters, values: filterValues, limit: limit, offset: offset, now: now, connection)
        }
        let source =
            useIndex
            ? """
            FROM articles_search CROSS JOIN articles ON articles.id = articles_search.rowid
            WHERE articles_search MATCH ? AND \(ArticleStore.published)\(filters)
            ORDER BY articles_search.rowid DESC LIMIT ?
            """
            : """
            FROM articles WHERE \(ArticleStore.published)\(filters)
            ORDER BY articles.published_at DESC, articles.id DESC LIMIT ?
            """
        let matchValue: [SQLValue] = useIndex ? [.text(match.query)] : []
        let rows = try connection.query(
            """
            SELECT \(Article.columns), page.total FROM (
                SELECT id, hits, published, count(*) OVER () AS total FROM (
                    SELECT articles.id AS id, \(titleHits) AS hits, articles.published_at AS published
                    \(source)
                ) AS matches ORDER BY hits DESC, published DESC, id DESC LIMIT ? OFFSET ?
            ) AS page JOIN articles ON articles.id = page.id
            ORDER BY page.hits DESC, page.published DESC, page.id DESC
            """,
            patterns + matchValue + [.integer(Int64(now))] + filterValues + [.integer(Int64(rankedCandidates))]
                + paging)
        return (rows, nil, rankedCandidates)
    }

    /// A short word (two Chinese characters, "AI") and nothing the index can narrow: the newest
    /// published articles holding every word, read in date order until the page is full. How many
    /// rows that reads depends on how common the words are, and ranking (or counting) the first
    /// 1,000 matches would read 50,000 rows for a word one article in 50 holds (100 ms at 100,000
    /// articles, against 3 ms for a page). Newest first, then, counted as far as this page saw:
    /// exact on the last page, "at least" before it.
    private static func shortWords(
        filters: String, values: [SQLValue], limit: Int, offset: Int, now: Int, _ connection: any SQLConnection
    ) throws -> (rows: [SQLRow], matches: Int?, countLimit: Int) {
        let rows = try connection.query(
            """
            SELECT \(Article.columns) FROM articles WHERE \(ArticleStore.published)\(filters)
            ORDER BY articles.published_at DESC, articles.id DESC LIMIT ? OFFSET ?
            """, [.integer(Int64(now))] + values + [.integer(Int64(limit)), .integer(Int64(offset))])
        let seen = rows.isEmpty ? 0 : offset + rows.count
        return (rows, seen, rows.count < limit ? Int.max : seen)
    }

    /// The index is asked unless the query's rarest part is in at least 1/this of the articles.
    static let commonTrigramShare = 4

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

    /// The FTS5 query that finds a superset of the answer, and how many articles hold its rarest
    /// part; nil when no word is long enough to have a trigram. For each word, its rarest trigram
    /// grown into the longest part of the word whose trigrams are all within 8× as rare — asked
    /// as a phrase, which the index answers from those trigrams' positions: `ferry123` is asked
    /// as `y123` (held by a few hundred articles), not `123` alone (by thousands), and `fer`,
    /// `err`, `rry` (every article) are left to the check. Words whose part is much more common
    /// than the query's rarest are left to the check too.
    private static func rarestTrigramsMatch(_ words: [String], counts: (String) throws -> Int) throws -> (
        query: String, articles: Int
    )? {
        var chosen: [(phrase: String, articles: Int)] = []
        for word in words {
            let scalars = Array(word.lowercased().unicodeScalars)
            guard scalars.count >= indexedWordCharacters else { continue }
            let trigrams = (0...(scalars.count - indexedWordCharacters)).map {
                String(String.UnicodeScalarView(scalars[$0..<($0 + indexedWordCharacters)]))
            }
            let held = try trigrams.map(counts)
            guard let fewest = held.min(), var first = held.firstIndex(of: fewest) else { continue }
            // No article holds it as folded here: the index may fold this word otherwise, so the
            // whole word is asked for (it finds what the index's folding finds).
            guard fewest > 0 else {
                if !chosen.contains(where: { $0.phrase == word }) { chosen.append((word, 0)) }
                continue
            }
            var last = first
            let bound = fewest * intersectedTrigramRatio
            while first > 0 && held[first - 1] <= bound { first -= 1 }
            while last < held.count - 1 && held[last + 1] <= bound { last += 1 }
            let phrase = String(String.UnicodeScalarView(scalars[first..<(last + indexedWordCharacters)]))
            if !chosen.contains(where: { $0.phrase == phrase }) { chosen.append((phrase, fewest)) }
        }
        guard let fewest = chosen.map(\.articles).min() else { return nil }
        let query = chosen.filter { $0.articles <= max(fewest, 1) * intersectedTrigramRatio }
            .map { "\"" + $0.phrase.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
            .joined(separator: " AND ")
        return (query, fewest)
    }

    private func articleCount(_ connection: any SQLConnection) throws -> Int {
        let now = monotonicMicroseconds() / 1_000_000
        if let cached = articleTotal.withLock({ $0 }), now - cached.readAt < Self.trigramCountSeconds {
            return cached.articles
        }
        let count = try connection.query("SELECT coalesce(max(id), 0) FROM articles").first?.int(0) ?? 0
        articleTotal.withLock { $0 = (count, now) }
        return count
    }

    private static func postgres(
        _ words: [String], limit: Int, offset: Int, now: Int, _ connection: any SQLConnection
    ) throws -> (rows: [SQLRow], matches: Int?, countLimit: Int) {
        let patterns = words.map { SQLValue.text("%" + likeEscaped($0.lowercased()) + "%") }
        let filters = words.map { _ in " AND \(text) LIKE ? ESCAPE '\\'" }.joined()
        let titleHits = words.map { _ in "(CASE WHEN lower(articles.title) LIKE ? ESCAPE '\\' THEN 1 ELSE 0 END)" }
            .joined(separator: " + ")
        // As on SQLite, words all too short for the trigram index are read newest first; other
        // queries rank the newest 1,000 matches, counted, best first (more of the words in the
        // title, then the newest).
        if words.allSatisfy({ $0.lowercased().unicodeScalars.count < indexedWordCharacters }) {
            return try shortWords(
                filters: filters, values: patterns, limit: limit, offset: offset, now: now, connection)
        }
        let rows = try connection.query(
            """
            SELECT \(Article.columns), count(*) OVER () FROM (
                SELECT articles.id AS id FROM articles WHERE \(ArticleStore.published)\(filters)
                ORDER BY articles.published_at DESC, articles.id DESC LIMIT ?
            ) AS matches JOIN articles ON articles.id = matches.id
            ORDER BY \(titleHits) DESC, articles.published_at DESC, articles.id DESC LIMIT ? OFFSET ?
            """,
            [.integer(Int64(now))] + patterns + [.integer(Int64(rankedCandidates))] + patterns
                + [.integer(Int64(limit)), .integer(Int64(offset))])
        return (rows, nil, rankedCandidates)
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
