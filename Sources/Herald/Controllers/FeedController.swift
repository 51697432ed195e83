import HTTP
import Mustache

/// `GET /feed.atom`: an Atom 1.0 feed of the newest articles, with absolute URLs.
struct FeedController: Sendable {
    static let entryCount = 50

    let pages: ArticlePages
    let views: Views
    /// A feed is the same for everyone: kept like a shared page (until the next write, or a second).
    let cache: PageCache
    /// Where its links point (never the request's Host).
    let site: SiteAddress

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/feed.atom") { request, context in
            try cache.response(for: FeedCopy(section: nil), context: context) { _ in try feed(section: nil) }
        }
        router.get("/sections/:section/feed.atom") { request, context in
            let slug = request.parameters["section"] ?? ""
            return try cache.response(for: FeedCopy(section: slug), context: context) { _ in
                guard let section = try pages.section(slug) else {
                    throw HTTPError(.notFound, "There is no section at this address.")
                }
                return try feed(section: section)
            }
        }
    }

    /// The site's feed, or one section's.
    func feed(section: Section?) throws -> Response {
        let base = site.baseURL
        let newest = try pages.newest(Self.entryCount, section: section)
        let entries: [MustacheValue] = newest.map { article in
            [
                "id": "\(base)\(ArticlePaths.article(article.slug))",
                "url": "\(base)\(ArticlePaths.article(article.slug))",
                "title": article.title, "summary": article.summary, "author": article.author,
                "section": article.section.isEmpty ? MustacheValue.null : .string(article.section),
                "published": DateText.rfc3339(article.publishedAt),
                "updated": DateText.rfc3339(Self.updated(article)),
                // Atom `type="html"` content is HTML carried as text: made safe once as HTML (the
                // rendered Markdown, or escaped paragraphs), and escaped once more by the template as XML.
                "content_html": .string(
                    article.bodyHTML ?? article.paragraphs.map { "<p>" + escapeHTML($0) + "</p>" }.joined()),
            ]
        }
        let path = section.map { SectionPaths.feed($0.slug) } ?? "/feed.atom"
        let model: [String: MustacheValue] = [
            "site_name": .string(views.site.name + (section.map { ": " + $0.name } ?? "")),
            "base_url": .string(base), "feed_url": .string(base + path),
            "feed_id": .string(base + (section.map { SectionPaths.section($0.slug) } ?? "/")),
            "updated": .string(DateText.rfc3339(newest.map(Self.updated).max() ?? 0)), "entries": .list(entries),
        ]
        var response = try views.document("feed", model: model, contentType: "application/atom+xml; charset=utf-8")
        // The same for everyone (nothing in it comes from the request): shared caches may keep it.
        response.headers.add("Cache-Control", "public, max-age=300")
        return response
    }

    /// An entry is updated when it was edited after it was published.
    static func updated(_ article: Article) -> Int {
        max(article.publishedAt, article.revisedAt ?? 0)
    }
}
