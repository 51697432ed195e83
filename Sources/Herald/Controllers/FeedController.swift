import HTTP
import Mustache

/// `GET /feed.atom`: an Atom 1.0 feed of the newest articles, with absolute URLs.
struct FeedController: Sendable {
    static let entryCount = 50

    let pages: ArticlePages
    let views: Views
    /// With a configured base URL a feed is the same for everyone: kept like a shared page (until
    /// the next write, or a second). Built from a request's Host it is never kept.
    let cache: PageCache
    /// A configured base URL wins; otherwise the URL is built from the request's Host (and the
    /// feed is not cacheable).
    let baseURL: String?

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/feed.atom") { request, context in
            try cache.response(for: FeedCopy(section: nil, shared: baseURL != nil), context: context) { _ in
                try feed(request, section: nil)
            }
        }
        router.get("/sections/:section/feed.atom") { request, context in
            let slug = request.parameters["section"] ?? ""
            return try cache.response(for: FeedCopy(section: slug, shared: baseURL != nil), context: context) { _ in
                guard let section = try pages.section(slug) else {
                    throw HTTPError(.notFound, "There is no section at this address.")
                }
                return try feed(request, section: section)
            }
        }
    }

    /// The site's feed, or one section's.
    func feed(_ request: Request, section: Section?) throws -> Response {
        let base = baseURL ?? Self.baseURL(fromHost: request.headers["Host"])
        let newest = try pages.newest(Self.entryCount, section: section)
        let document = FeedDocument(
            title: views.site.name + (section.map { ": " + $0.name } ?? ""), base: base,
            path: section.map { SectionPaths.feed($0.slug) } ?? "/feed.atom",
            homePath: section.map { SectionPaths.section($0.slug) } ?? "/", articles: newest)
        var response = try views.document(document, contentType: "application/atom+xml; charset=utf-8")
        // With a configured base URL the feed is the same for everyone, so shared caches may keep
        // it. Without one its links come from this request's Host: a cache that keys on the path
        // alone would hand one client's forged Host to every subscriber, so it must not store it.
        response.headers.add("Cache-Control", baseURL == nil ? "no-store" : "public, max-age=300")
        return response
    }

    /// `http://` + the Host header when it is a plain host[:port]; anything odd falls back to
    /// localhost so that a forged Host cannot inject markup or another scheme into the feed.
    static func baseURL(fromHost host: String?) -> String {
        guard let host, !host.isEmpty, host.utf8.count <= 255,
            host.utf8.allSatisfy({ byte in
                (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                    || byte == UInt8(ascii: "-") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ":")
                    || byte == UInt8(ascii: "[") || byte == UInt8(ascii: "]")
            })
        else { return "http://localhost" }
        return "http://\(host)"
    }
}
