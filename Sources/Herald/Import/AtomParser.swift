import Foundation

/// Atom 1.0 (RFC 4287): `feed/entry` records, read one at a time by `XMLFeedReader`.
final class AtomParser: XMLFeedHandler {
    static let namespace = "http://www.w3.org/2005/Atom"

    let recordDepth = 1
    private var articles: [IncomingArticle] = []
    /// Entries without an author of their own; they take the feed's, which may come after them.
    private var articlesWithoutAuthor: [Int] = []
    private var feedAuthor = ""

    func handle(_ element: FeedXMLElement, parent: String) throws(FeedIssue) {
        guard element.namespace == Self.namespace else { return }
        switch element.name {
        case "entry":
            guard articles.count < FeedParser.maximumEntries else { throw FeedIssue.tooManyEntries }
            let article = try Self.article(from: element, number: articles.count + 1)
            if article.author.isEmpty { articlesWithoutAuthor.append(articles.count) }
            articles.append(article)
        case "author" where feedAuthor.isEmpty:
            feedAuthor = Self.personName(element)
        default:
            break
        }
    }

    func finish() throws(FeedIssue) -> [IncomingArticle] {
        for index in articlesWithoutAuthor { articles[index].author = feedAuthor }
        return articles
    }

    private static func article(from entry: FeedXMLElement, number: Int) throws(FeedIssue) -> IncomingArticle {
        var fields = FeedEntryFields(position: "entry \(number) at line \(entry.line)")
        let id = child("id", of: entry)?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        fields.link = alternateLink(of: entry)
        fields.sourceID = id.isEmpty ? fields.link : id
        fields.title = child("title", of: entry).map { HTMLText.singleLine(plainText(of: $0)) } ?? ""
        fields.summary = child("summary", of: entry).map { HTMLText.singleLine(plainText(of: $0)) } ?? ""
        fields.body = child("content", of: entry).map(plainText(of:)) ?? ""
        fields.author = child("author", of: entry).map(personName) ?? ""
        let term = entry.all("category", in: namespace).lazy.compactMap { $0.attributes["term"] }.first
        fields.section = term.map(FeedEntryFields.section(from:)) ?? ""
        // `updated` is required by Atom, `published` optional; the publication date is the one readers expect.
        fields.date = (child("published", of: entry) ?? child("updated", of: entry))?.text
        fields.language = entry.attributes["xml:lang"] ?? entry.attributes["lang"]
        return try fields.article(
            idNames: "id or alternate link", dateNames: "published or updated", parseDate: FeedDate.rfc3339)
    }

    private static func child(_ name: String, of element: FeedXMLElement) -> FeedXMLElement? {
        element.first(name, in: namespace)
    }

    /// The entry's web page: `link` with `rel="alternate"`, which is also what a missing `rel` means.
    private static func alternateLink(of entry: FeedXMLElement) -> String {
        let links = entry.all("link", in: namespace)
        let alternate = links.first { ($0.attributes["rel"] ?? "alternate") == "alternate" }
        return alternate?.attributes["href"]?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
    }

    private static func personName(_ person: FeedXMLElement) -> String {
        child("name", of: person).map { HTMLText.singleLine($0.text) } ?? ""
    }

    /// An Atom text construct or `content` as plain paragraphs, by its `type`: escaped HTML, inline XHTML,
    /// or text (the default). `content` may also carry a media type; out-of-line (`src`) or binary content
    /// has no text for us.
    private static func plainText(of construct: FeedXMLElement) -> String {
        guard construct.attributes["src"] == nil else { return "" }
        switch (construct.attributes["type"] ?? "text").lowercased() {
        case "html", "text/html":
            return HTMLText.plainParagraphs(fromHTML: construct.text)
        case "xhtml", "application/xhtml+xml":
            return HTMLText.plainParagraphs(fromHTML: construct.innerHTML)
        case let type where type == "text" || type.hasPrefix("text/"):
            return HTMLText.normalizePlainText(construct.text)
        case let type where type.hasSuffix("+xml") || type.hasSuffix("/xml"):
            return HTMLText.normalizePlainText(construct.text)
        default:
            return ""
        }
    }
}
