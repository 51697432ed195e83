import HTTP
import Mustache

/// What crawlers read: `/robots.txt` and `/sitemap.xml` (published articles and sections; past
/// 50,000 addresses, a sitemap index of numbered files, as the sitemap protocol requires).
struct CrawlersController: Sendable {
    static let urlsPerSitemap = 50_000

    let sitemaps: Sitemaps
    /// Where the listed addresses point (never the request's Host).
    let site: SiteAddress

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/robots.txt") { _, _ in robots() }
        router.get("/sitemap.xml") { _, _ in try sitemap() }
        router.get("/sitemaps/:file") { request, _ in try sitemapFile(request) }
    }

    /// Pages for one reader, or for the people who run the site, are not for indexing.
    static let privatePaths = ["/login", "/register", "/account", "/editor", "/moderation", "/me/", "/password/"]

    func robots() -> Response {
        let base = site.baseURL
        let lines =
            ["User-agent: *"] + Self.privatePaths.map { "Disallow: \($0)" } + ["", "Sitemap: \(base)/sitemap.xml"]
        var response = Response.text(lines.joined(separator: "\n") + "\n")
        cacheHeaders(&response)
        return response
    }

    func sitemap() throws -> Response {
        let now = sitemaps.now
        let base = site.baseURL
        let count = try sitemaps.publishedCount(now: now)
        let sectionList = try sitemaps.sections(now: now)
        guard count + sectionList.count + 1 > Self.urlsPerSitemap else {
            let entries = try sitemaps.articles(offset: 0, limit: Self.urlsPerSitemap, now: now)
            return xml(urlSet(base: base, home: true, sections: sectionList, articles: entries))
        }
        let files = (count + Self.urlsPerSitemap - 1) / Self.urlsPerSitemap
        var body = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        body += #"<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"# + "\n"
        body += "  <sitemap><loc>\(escapeHTML(base))/sitemaps/sections.xml</loc></sitemap>\n"
        for number in 1...max(1, files) {
            body += "  <sitemap><loc>\(escapeHTML(base))/sitemaps/articles-\(number).xml</loc></sitemap>\n"
        }
        body += "</sitemapindex>\n"
        return xml(body)
    }

    /// `sections.xml` (the front page and every section), or `articles-N.xml` (50,000 a file).
    func sitemapFile(_ request: Request) throws -> Response {
        let name = request.parameters["file"] ?? ""
        let now = sitemaps.now
        let base = site.baseURL
        if name == "sections.xml" {
            return xml(urlSet(base: base, home: true, sections: try sitemaps.sections(now: now)))
        }
        guard name.hasPrefix("articles-"), name.hasSuffix(".xml"),
            let number = Int(name.dropFirst("articles-".count).dropLast(".xml".count)), number >= 1,
            number <= 100_000
        else { throw Self.noSuchFile }
        let entries = try sitemaps.articles(
            offset: (number - 1) * Self.urlsPerSitemap, limit: Self.urlsPerSitemap, now: now)
        guard !entries.isEmpty else { throw Self.noSuchFile }
        return xml(urlSet(base: base, home: false, sections: [], articles: entries))
    }

    static let noSuchFile = HTTPError(.notFound, "There is no such sitemap file.")

    private func urlSet(
        base: String, home: Bool, sections: [Section], articles: [(slug: String, lastModified: Int)] = []
    ) -> String {
        var body = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        body += #"<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">"# + "\n"
        let root = escapeHTML(base)
        if home { body += "  <url><loc>\(root)/</loc></url>\n" }
        for section in sections {
            body +=
                "  <url><loc>\(root)\(PercentEncoding.uri(fromIRI: SectionPaths.section(section.slug)))</loc></url>\n"
        }
        for article in articles {
            body +=
                "  <url><loc>\(root)\(PercentEncoding.uri(fromIRI: ArticlePaths.article(article.slug)))</loc>"
                + "<lastmod>\(DateText.rfc3339(article.lastModified))</lastmod></url>\n"
        }
        body += "</urlset>\n"
        return body
    }

    private func xml(_ body: String) -> Response {
        var response = Response(
            status: .ok, headers: HTTPHeaders([("Content-Type", "application/xml; charset=utf-8")]),
            body: Array(body.utf8))
        cacheHeaders(&response)
        return response
    }

    /// The same for everyone (nothing in them comes from the request): shared caches may keep them.
    private func cacheHeaders(_ response: inout Response) {
        response.headers.add("Cache-Control", "public, max-age=300")
    }
}
