import Foundation
import TestSupport

#if canImport(FoundationXML)
    import FoundationXML
#endif

@testable import Herald

// Helpers for the discovery suites (SearchTests, CrawlerTests, OpenGraphTests, SiteIdentityTests, ScriptJSONTests; SPEC "Discovery"): articles put straight into the store, search
// result pages read from their HTML hooks, a seeded random source for generated queries, and a
// structural check of sitemap documents.

/// One article to import: what the search looks at, and when it was published.
struct SearchableArticle {
    var title: String
    var summary = ""
    var body = ""
    var section = ""
    /// Seconds before now (positive: in the past; negative: scheduled in the future).
    var age = 3_600
}

extension TestApp {
    /// Imports `articles` (published at `now - age`) and returns each one's slug by title.
    @discardableResult
    func publish(_ articles: [SearchableArticle]) throws -> [String: String] {
        let now = configuration.clock.now()
        let incoming = articles.enumerated().map { index, article in
            IncomingArticle(
                sourceID: "discovery-\(index)-\(article.title)", title: article.title, summary: article.summary,
                body: article.body, author: "Desk", section: article.section, publishedAt: now - article.age)
        }
        _ = try app.articles.importArticles(incoming, now: now)
        return try slugsByTitle()
    }

    /// Every stored article's slug, by title.
    func slugsByTitle() throws -> [String: String] {
        let rows = try app.database.withConnection { try $0.query("SELECT title, slug FROM articles", []) }
        return Dictionary(rows.map { ($0.string(0), $0.string(1)) }, uniquingKeysWith: { first, _ in first })
    }
}

/// One result on a `/search` page.
struct SearchHit: Equatable {
    /// The path it links to (`/articles/SLUG`).
    let href: String
    /// The title as HTML (escaped).
    let titleHTML: String
    /// The snippet as HTML.
    let snippetHTML: String

    var slug: String { String(href.dropFirst("/articles/".count)) }
}

/// The results list of a search page, in order; empty when the page has none.
func searchHits(in html: String) -> [SearchHit] {
    captureGroups(
        #"(?s)<li class="story search-result">.*?<h2 class="story-title"><a href="([^"]*)">(.*?)</a></h2>.*?<p class="snippet">(.*?)</p>"#,
        in: html
    ).map { SearchHit(href: $0[0], titleHTML: $0[1], snippetHTML: $0[2]) }
}

/// The `rel="next"` link of a results page, HTML-unescaped.
func nextLink(in html: String) -> String? {
    firstMatch(#"<a href="([^"]*)" rel="next""#, in: html).map { $0.replacingOccurrences(of: "&amp;", with: "&") }
}

/// `/search?q=…` with every byte outside the unreserved set percent-encoded.
func searchPath(_ query: String, page: Int? = nil) -> String {
    "/search?q=" + percentEncodeAll(query) + (page.map { "&page=\($0)" } ?? "")
}

func percentEncodeAll(_ text: String) -> String {
    percentEncodeAll(Array(text.utf8))
}

func percentEncodeAll(_ bytes: [UInt8]) -> String {
    var out = ""
    for byte in bytes {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
            UInt8(ascii: "~"):
            out.append(Character(Unicode.Scalar(byte)))
        default:
            out += String(format: "%%%02X", byte)
        }
    }
    return out
}

/// Every result of a search, following `rel="next"` (at most `pages` pages); nil and the
/// failing answer when a page is not 200.
func allSearchHits(_ client: any HTTPTestClient, _ query: String, pages: Int = 5) throws -> (
    hits: [SearchHit], failure: TestResponse?
) {
    var hits: [SearchHit] = []
    var path: String? = searchPath(query)
    var count = 0
    while let next = path, count < pages {
        let response = try client.get(next)
        guard response.status == 200 else { return (hits, response) }
        hits += searchHits(in: response.text)
        path = nextLink(in: response.text)
        count += 1
    }
    return (hits, nil)
}

/// The `content` of `<meta property="PROPERTY" …>` tags, in order.
func metaProperties(_ property: String, in html: String) -> [String] {
    matches(of: #"<meta property="\#(NSRegularExpression.escapedPattern(for: property))" content="([^"]*)">"#, in: html)
}

func metaName(_ name: String, in html: String) -> [String] {
    matches(of: #"<meta name="\#(NSRegularExpression.escapedPattern(for: name))" content="([^"]*)">"#, in: html)
}

func canonicalLinks(in html: String) -> [String] {
    matches(of: #"<link rel="canonical" href="([^"]*)">"#, in: html)
}

/// HTML attribute text back to text (the five entities Herald's escaping produces, and numeric ones).
func unescapeHTML(_ text: String) -> String {
    var out = text
    for (entity, character) in [("&lt;", "<"), ("&gt;", ">"), ("&quot;", "\""), ("&#39;", "'"), ("&#x27;", "'")] {
        out = out.replacingOccurrences(of: entity, with: character)
    }
    return out.replacingOccurrences(of: "&amp;", with: "&")
}

/// The bytes of `text` with ASCII letters lower-cased (what "case-insensitive for ASCII" means).
func asciiFolded(_ text: String) -> [UInt8] {
    text.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }
}

func containsBytes(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
    guard !needle.isEmpty else { return true }
    guard needle.count <= haystack.count else { return false }
    let first = needle[0]
    var index = 0
    let last = haystack.count - needle.count
    while index <= last {
        if haystack[index] == first, haystack[index..<index + needle.count].elementsEqual(needle) { return true }
        index += 1
    }
    return false
}

/// SplitMix64: a small, fast, seeded generator, so a failing generated query can be reproduced.
struct SeededRandom: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

// MARK: Sitemaps

/// A sitemap document as XMLParser reads it (namespaces processed): the root, and each child of
/// the root with its own children's names and texts, in order.
final class SitemapDocument: NSObject, XMLParserDelegate {
    struct Entry {
        var name: String
        var namespace: String?
        var children: [(name: String, namespace: String?, text: String)] = []
    }

    private(set) var rootName: String?
    private(set) var rootNamespace: String?
    private(set) var entries: [Entry] = []
    /// Elements deeper than entry → field, or text directly under the root or an entry.
    private(set) var problems: [String] = []
    private(set) var parseError: String?
    private var depth = 0
    private var text = ""

    static func parse(_ bytes: [UInt8]) -> SitemapDocument {
        let document = SitemapDocument()
        let parser = XMLParser(data: Data(bytes))
        parser.shouldProcessNamespaces = true
        parser.delegate = document
        if !parser.parse() {
            document.parseError = parser.parserError.map { "\($0)" } ?? "parse failed"
        }
        return document
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName qName: String?,
        attributes attributeDict: [String: String] = [:]
    ) {
        depth += 1
        text = ""
        switch depth {
        case 1:
            rootName = elementName
            rootNamespace = namespaceURI
        case 2:
            entries.append(Entry(name: elementName, namespace: namespaceURI))
        case 3:
            break
        default:
            problems.append("element <\(elementName)> nested too deep")
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        text += string
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        if depth == 3, !entries.isEmpty {
            entries[entries.count - 1].children.append((elementName, namespaceURI, text))
        } else if depth <= 2, !text.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            problems.append("text \(text.prefix(40)) directly inside <\(elementName)>")
        }
        text = ""
        depth -= 1
    }

    static let namespace = "http://www.sitemaps.org/schemas/sitemap/0.9"

    /// What the sitemap schema (sitemap.xsd / siteindex.xsd) asks of this document, as messages;
    /// empty when it holds. `entry` is `url` (urlset) or `sitemap` (sitemapindex); `fields` the
    /// children the schema allows, in order. Every loc must be absolute under `base`.
    func schemaProblems(root: String, entry: String, fields: [String], base: String) -> [String] {
        var found = problems
        if let parseError { found.append("not well-formed XML: \(parseError)") }
        if rootName != root { found.append("root is <\(rootName ?? "none")>, expected <\(root)>") }
        if rootNamespace != Self.namespace { found.append("root namespace is \(rootNamespace ?? "none")") }
        if entries.count > 50_000 { found.append("\(entries.count) entries: the limit is 50,000") }
        for (index, item) in entries.enumerated() where found.count < 20 {
            if item.name != entry || item.namespace != Self.namespace {
                found.append("entry \(index) is <\(item.name)> in \(item.namespace ?? "no namespace")")
            }
            let names = item.children.map(\.name)
            // Each allowed field at most once, in the schema's order, loc first and required.
            let positions = names.map { fields.firstIndex(of: $0) ?? -1 }
            if positions.contains(-1) || positions != positions.sorted() || Set(names).count != names.count
                || names.first != "loc"
            {
                found.append("entry \(index) has children \(names)")
            }
            for child in item.children where child.namespace != Self.namespace {
                found.append("entry \(index): <\(child.name)> is in \(child.namespace ?? "no namespace")")
            }
            if let loc = item.children.first(where: { $0.name == "loc" })?.text {
                if !loc.hasPrefix(base + "/") || loc.count > 2048 || URL(string: loc)?.scheme == nil {
                    found.append("entry \(index): loc \(loc) is not an absolute URL under \(base)")
                }
            }
            if let lastmod = item.children.first(where: { $0.name == "lastmod" })?.text,
                firstMatch(Self.w3cDatetime, in: lastmod) == nil
            {
                found.append("entry \(index): lastmod \(lastmod) is not a W3C datetime")
            }
        }
        return found
    }

    /// W3C Datetime (as the sitemap protocol allows it): a date, or a date and time with a zone.
    static let w3cDatetime =
        #"^(\d{4}(?:-\d{2}(?:-\d{2}(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2}))?)?)?)$"#

    /// The loc of each entry.
    var locations: [String] {
        entries.compactMap { $0.children.first { $0.name == "loc" }?.text }
    }

    /// lastmod by loc.
    var lastModified: [String: String] {
        Dictionary(
            entries.compactMap { entry -> (String, String)? in
                guard let loc = entry.children.first(where: { $0.name == "loc" })?.text,
                    let lastmod = entry.children.first(where: { $0.name == "lastmod" })?.text
                else { return nil }
                return (loc, lastmod)
            }, uniquingKeysWith: { first, _ in first })
    }
}

let urlsetFields = ["loc", "lastmod", "changefreq", "priority"]
let sitemapIndexFields = ["loc", "lastmod"]
