import Foundation
import Mustache

/// `/search`: published articles holding every word of a query, best first, with a snippet
/// around the first match. Knows nothing of HTTP.
final class Search: Sendable {
    static let pageSize = 20
    static let maximumPage = 50
    /// Also what bounds the number of words (at most 100), each one more condition on a row.
    static let maximumQueryCharacters = 200

    enum Outcome: Sendable, Equatable {
        /// No words: the search form alone.
        case empty
        case tooLong
        /// `matches`: how many articles hold every word, or at least how many (`orMore`: the
        /// search counted no further).
        case results([Result], hasMore: Bool, matches: Int, orMore: Bool)
        case pastTheLast
    }

    struct Result: Sendable, Equatable {
        var article: Article
        /// HTML: the text around the first match, escaped, with every match in `<mark>`.
        var snippetHTML: String
    }

    private let store: SearchStore
    private let clock: Clock

    init(store: SearchStore, clock: Clock) {
        self.store = store
        self.clock = clock
    }

    func search(_ query: String, page: Int) throws -> Outcome {
        guard query.count <= Self.maximumQueryCharacters else { return .tooLong }
        let words = Self.words(of: query)
        guard !words.isEmpty else { return .empty }
        guard page <= Self.maximumPage else { return .pastTheLast }
        let found = try store.search(words, page: page, size: Self.pageSize, now: clock.now())
        if found.articles.isEmpty && page > 1 { return .pastTheLast }
        let results = found.articles.map { article in
            var listed = article
            // Plain text: the reader sees the article's words, not its Markdown's marks.
            let snippet = SearchSnippet.html(in: article.summary + "\n" + SnippetText.of(article), words: words)
            listed.body = ""
            listed.bodyHTML = nil
            return Result(article: listed, snippetHTML: snippet)
        }
        return .results(
            results, hasMore: found.hasMore && page < Self.maximumPage, matches: min(found.matches, found.countLimit),
            orMore: found.matches >= found.countLimit)
    }

    /// The query's terms (`SearchTerms`): every one counts, an article must hold them all.
    static func words(of query: String) -> [String] { SearchTerms.of(query) }
}

/// A snippet for a search result: about 240 bytes of text around the first match, every match
/// marked, everything escaped. Works on UTF-8 bytes with ASCII case folding (Foundation's
/// case-insensitive search, bridged on Linux, made snippets most of a search's time).
enum SearchSnippet {
    static let before = 100
    static let length = 240

    static func html(in text: String, words: [String]) -> String {
        let flat = collapsedWhitespace(Array(text.utf8))
        let folded = flat.map(asciiLower)
        let needles = words.map { Array($0.utf8).map(asciiLower) }.filter { !$0.isEmpty }
        let first = needles.compactMap { ByteSearch.offsets(of: $0, in: folded).first }.min() ?? 0
        let start = boundary(flat, atOrAfter: max(0, first - before))
        let end = boundary(flat, atOrAfter: min(flat.count, start + length))
        // Every match in the window, earliest first (the longer word when two start together).
        var matches: [(start: Int, end: Int)] = []
        let window = Array(folded[start..<end])
        for needle in needles {
            for offset in ByteSearch.offsets(of: needle, in: window) {
                matches.append((start + offset, start + offset + needle.count))
            }
        }
        matches.sort { $0.start < $1.start || ($0.start == $1.start && $0.end > $1.end) }
        // Matches that touch are one mark: 「渡輪班次」 asked as 渡輪 and 班次 is marked whole.
        var marks: [(start: Int, end: Int)] = []
        for match in matches {
            if let last = marks.last, match.start <= last.end {
                marks[marks.count - 1].end = max(last.end, match.end)
            } else {
                marks.append(match)
            }
        }
        var html = start > 0 ? "…" : ""
        var position = start
        for match in marks where match.start >= position {
            let matchEnd = boundary(flat, atOrAfter: min(match.end, end))
            html += escapeHTML(String(decoding: flat[position..<match.start], as: UTF8.self))
            html += "<mark>" + escapeHTML(String(decoding: flat[match.start..<matchEnd], as: UTF8.self)) + "</mark>"
            position = matchEnd
        }
        html += escapeHTML(String(decoding: flat[position..<end], as: UTF8.self))
        if end < flat.count { html += "…" }
        return html
    }

    private static func asciiLower(_ byte: UInt8) -> UInt8 {
        (0x41...0x5A).contains(byte) ? byte + 32 : byte
    }

    /// Runs of ASCII whitespace as one space.
    private static func collapsedWhitespace(_ bytes: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var inSpace = false
        for byte in bytes {
            if byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 {
                if !inSpace && !out.isEmpty { out.append(0x20) }
                inSpace = true
            } else {
                out.append(byte)
                inSpace = false
            }
        }
        return out
    }

    /// The first index at or after `index` that starts a character (not a UTF-8 continuation byte).
    private static func boundary(_ bytes: [UInt8], atOrAfter index: Int) -> Int {
        var index = index
        while index < bytes.count && bytes[index] & 0xC0 == 0x80 { index += 1 }
        return index
    }
}
