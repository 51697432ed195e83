import HTTP
import Mustache

/// `feed.mustache`: an Atom feed of the newest articles, the site's or one section's.
struct FeedDocument: PageModel {
    let template = PageTemplate.feed
    /// The feed's title: the site's name (and the section's).
    let title: String
    /// Absolute URLs start with this.
    let base: String
    /// The feed's own path, and the page it is the feed of.
    let path: String
    let homePath: String
    let articles: [Article]

    /// An entry is updated when it was edited after it was published.
    static func updated(_ article: Article) -> Int {
        max(article.publishedAt, article.revisedAt ?? 0)
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "site_name": .string(title)
        case "base_url": .string(base)
        // Percent-encoded: a section's slug may be Chinese, and an Atom id is compared as a string.
        case "feed_url": .string(PercentEncoding.uri(fromIRI: base + path))
        case "feed_id": .string(PercentEncoding.uri(fromIRI: base + homePath))
        case "updated": .string(DateText.rfc3339(articles.map(Self.updated).max() ?? 0))
        case "entries": .list(articles.map { .object(FeedEntry(article: $0, base: base)) })
        default: nil
        }
    }
}

/// One entry of the feed.
struct FeedEntry: MustacheObject {
    let article: Article
    let base: String

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "id", "url": .string(PercentEncoding.uri(fromIRI: base + ArticlePaths.article(article.slug)))
        case "title": .string(article.title)
        case "summary": .string(article.summary)
        case "author": .string(article.author)
        case "section": article.section.isEmpty ? .null : .string(article.section)
        case "published": .string(DateText.rfc3339(article.publishedAt))
        case "updated": .string(DateText.rfc3339(FeedDocument.updated(article)))
        // Atom `type="html"` content is HTML carried as text: made safe once as HTML (the rendered
        // Markdown, or escaped paragraphs), and escaped once more by the template as XML.
        case "content_html":
            .string(article.bodyHTML ?? article.paragraphs.map { "<p>" + escapeHTML($0) + "</p>" }.joined())
        default: nil
        }
    }
}
