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
                    return try ArticlesController.movedSection(slug, pages, request, feed: true)
                }
                return try feed(section: section)
            }
        }
    }

    /// The site's feed, or one section's.
    func feed(section: Section?) throws -> Response {
        let base = site.baseURL
        let newest = try pages.newest(Self.entryCount, section: section)
        let document = FeedDocument(
            title: views.site.name + (section.map { ": " + $0.name } ?? ""), base: base,
            path: section.map { SectionPaths.feed($0.slug) } ?? "/feed.atom",
            homePath: section.map { SectionPaths.section($0.slug) } ?? "/", articles: newest)
        var response = try views.document(document, contentType: "application/atom+xml; charset=utf-8")
        response.headers.add("Cache-Control", "public, max-age=300")
        return response
    }

}
