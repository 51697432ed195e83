import HTTP
import Mustache

/// The reading pages: the front page and each article's page.
struct ArticlesController: Sendable {
    let pages: ArticlePages
    let page: ArticlePage
    let views: Views
    let cache: PageCache

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/") { request, context in try frontPage(request, context) }
        router.get("/articles/:slug") { request, context in try articlePage(request, context) }
        router.get("/sections/:section") { request, context in try sectionPage(request, context) }
    }

    func frontPage(_ request: Request, _ context: RequestContext) throws -> Response {
        let number = try Self.pageNumber(request.query["page"])
        let copy = FrontPageCopy(page: number, loggedIn: context.user != nil, links: HeaderLinks(for: context.user))
        return try cache.response(for: copy, context: context) { context in
            try list(number, section: nil, context)
        }
    }

    /// `/sections/{slug}`: a section's published articles, paginated and cached like `/`.
    func sectionPage(_ request: Request, _ context: RequestContext) throws -> Response {
        let number = try Self.pageNumber(request.query["page"])
        let slug = request.parameters["section"] ?? ""
        let copy = FrontPageCopy(
            page: number, loggedIn: context.user != nil, section: slug, links: HeaderLinks(for: context.user))
        return try cache.response(for: copy, context: context) { context in
            guard let section = try pages.section(slug) else { return try Self.movedSection(slug, pages, request) }
            return try list(number, section: section, context)
        }
    }

    /// A 301 from an article's old address (`article-2`, before slugs kept Chinese letters) to
    /// its address now; 404 for an address that never was an article's.
    private func movedArticle(_ slug: String) throws -> Response {
        guard let moved = try pages.articleSlug(movedFrom: slug) else { throw ArticleRoutes.noSuchArticle }
        return .redirect(to: ArticlePaths.article(moved), status: .movedPermanently)
    }

    /// The same for a section's page or feed (`feed` true): a 301 to the same page of the section
    /// at its new slug (its query kept), or 404.
    static func movedSection(
        _ slug: String, _ pages: ArticlePages, _ request: Request, feed: Bool = false
    ) throws -> Response {
        guard let moved = try pages.sectionSlug(movedFrom: slug) else {
            throw HTTPError(.notFound, "There is no section at this address.")
        }
        let path = feed ? SectionPaths.feed(moved) : SectionPaths.section(moved)
        let page = request.query["page"].map { "?page=" + PercentEncoding.encode($0) } ?? ""
        return .redirect(to: path + (feed ? "" : page), status: .movedPermanently)
    }

    /// Page `number` of the front page or of a section, or the 404 saying why there is none.
    private func list(_ number: Int, section: Section?, _ context: RequestContext) throws -> Response {
        let name = section == nil ? "the front page" : "the section"
        switch try pages.front(page: number, section: section) {
        case .articles(let items, let hasOlder):
            return try renderList(number, items, hasOlder: hasOlder, section: section, context)
        case .beyondTheArchive:
            throw HTTPError(
                .notFound,
                "\(section == nil ? "The front page" : "A section") goes back \(ArticlePages.maximumPage) pages. "
                    + "Older articles are still at their own addresses.")
        case .pastTheLast:
            throw HTTPError(.notFound, "There is no page \(number): \(name) has fewer articles than that.")
        }
    }

    /// The front page, or a section's page: the same list, under its own heading and links.
    private func renderList(
        _ number: Int, _ items: [Article], hasOlder: Bool, section: Section?, _ context: RequestContext
    ) throws -> Response {
        let base = section.map { SectionPaths.section($0.slug) } ?? "/"
        let page = FrontPage(articles: items, page: number, hasOlder: hasOlder, section: section)
        let heading = section?.name ?? context.text("latest_news")
        let title = number == 1 ? heading : context.text("title_page", ["title": heading, "page": String(number)])
        let path = number == 1 ? base : "\(base)?page=\(number)"
        let meta = Views.PageMeta(
            description: section.map {
                context.text("section_description", ["section": $0.name, "site": views.site.name])
            } ?? views.site.description,
            canonicalPath: path, openGraph: [("og:type", "website"), ("og:title", title), ("og:url", path)])
        return try views.page(page, title: title, context: context, meta: meta)
    }

    /// An anonymous reader's copy is looked up only when the cache has none; a logged-in reader's
    /// like state and own comments decide which copy they get.
    func articlePage(_ request: Request, _ context: RequestContext) throws -> Response {
        let slug = ArticleRoutes.slug(request)
        let commentsPage = try Self.pageNumber(request.query["comments"], what: "comments page")
        guard let view = try pages.readerView(of: slug, for: context.user) else { return try movedArticle(slug) }
        let copy = ArticlePageCopy(
            slug: slug, view: view, commentsPage: commentsPage,
            moderating: Moderation.mayModerate(context.user), links: HeaderLinks(for: context.user))
        return try cache.response(for: copy, context: context) { context in
            guard let article = try view.article ?? pages.publishedArticle(slug) else { return try movedArticle(slug) }
            return try page.render(article, context: context, liked: view.liked, commentsPage: commentsPage)
        }
    }

    /// `?page=N`: absent means 1; otherwise decimal digits only, N ≥ 1 (SPEC: anything else is 400).
    /// A number too large for `Int` is still a page number, just past the last one.
    static func pageNumber(_ text: String?, what: String = "page number") throws(HTTPError) -> Int {
        guard let text else { return 1 }
        let refusal = HTTPError(.badRequest, "The \(what) must be a whole number of 1 or more.")
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { throw refusal }
        guard let number = Int(text) else { return Int.max }
        guard number >= 1 else { throw refusal }
        return number
    }
}
