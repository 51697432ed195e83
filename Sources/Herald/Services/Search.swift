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
        case results([Result], hasMore: Bool)
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
        let (articles, hasMore) = try store.search(words, page: page, size: Self.pageSize, now: clock.now())
        if articles.isEmpty && page > 1 { return .pastTheLast }
        let results = articles.map { article in
            var listed = article
            let snippet = SearchSnippet.html(in: article.summary + "\n" + article.body, words: words)
            listed.body = ""
            return Result(article: listed, snippetHTML: snippet)
        }
        return .results(results, hasMore: hasMore && page < Self.maximumPage)
    }

    /// The query's words: split on whitespace, each kept whole (punctuation included), without
    /// repeats. Every one counts: an article must hold them all.
    static func words(of query: String) -> [String] {
        var seen: Set<String> = []
        var words: [String] = []
        for word in query.split(whereSeparator: { $0.isWhitespace || $0.isNewline }) {
            let text = String(word)
            guard !text.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }),
                seen.insert(text.lowercased()).inserted
            else { continue }
            words.append(text)
        }
        return words
    }
}

/// A snippet for a search result: up to ~240 characters around the first match, every match
/// marked, everything escaped.
enum SearchSnippet {
    static let radius = 100

    static func html(in text: String, words: [String]) -> String {
        let flat = text.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).joined(separator: " ")
        let first = words.compactMap { flat.range(of: $0, options: [.caseInsensitive]) }.min {
            $0.lowerBound < $1.lowerBound
        }
        let start =
            first.map { flat.index($0.lowerBound, offsetBy: -radius, limitedBy: flat.startIndex) ?? flat.startIndex }
            ?? flat.startIndex
        let end = flat.index(start, offsetBy: 2 * radius + 40, limitedBy: flat.endIndex) ?? flat.endIndex
        let window = String(flat[start..<end])
        var html = start > flat.startIndex ? "…" : ""
        var position = window.startIndex
        while position < window.endIndex {
            let next = words.compactMap {
                window.range(of: $0, options: [.caseInsensitive], range: position..<window.endIndex)
            }.min { $0.lowerBound < $1.lowerBound || ($0.lowerBound == $1.lowerBound && $0.upperBound > $1.upperBound) }
            guard let match = next else { break }
            html += escapeHTML(String(window[position..<match.lowerBound]))
            html += "<mark>" + escapeHTML(String(window[match])) + "</mark>"
            position = match.upperBound
        }
        html += escapeHTML(String(window[position...]))
        if end < flat.endIndex { html += "…" }
        return html
    }
}
