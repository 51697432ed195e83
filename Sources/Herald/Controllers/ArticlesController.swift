import HTTP
import Mustache

/// The reading pages: the front page and each article's page.
struct ArticlesController: Sendable {
    static let pageSize = 20
    /// The front page goes back this many pages (10,000 articles); deeper pages answer 404 like
    /// any page past the last. OFFSET costs grow with depth (measured: page 5,000 of 100,000
    /// articles took 175 ms), and this keeps every page's cost flat at any table size.
    /// Older articles stay at their own addresses and in the feed.
    static let maximumPage = 500

    let articles: ArticleStore
    let page: ArticlePage
    let views: Views
    let cache: PageCache
    let likes: LikeStore
    let comments: CommentStore

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/") { request, context in try frontPage(request, context) }
        router.get("/articles/:slug") { request, context in try articlePage(request, context) }
    }

    func frontPage(_ request: Request, _ context: RequestContext) throws -> Response {
        let number = try Self.pageNumber(request.query["page"])
        guard number <= Self.maximumPage else {
            throw HTTPError(
                .notFound,
                "The front page goes back \(Self.maximumPage) pages. Older articles are still at their own addresses.")
        }
        guard PageCache.applies(to: context), number <= 10 else { return try renderFrontPage(number, context) }
        // The front page holds nothing of the reader's but their name in the header.
        let key = "front:\(number):" + (context.user == nil ? "anonymous" : "reader")
        return try cache.response(key, context: context) { try renderFrontPage(number, $0) }
    }

    private func renderFrontPage(_ number: Int, _ context: RequestContext) throws -> Response {
        var (items, hasOlder) = try articles.page(number, size: Self.pageSize)
        if items.isEmpty && number > 1 {
            throw HTTPError(.notFound, "There is no page \(number): the front page has fewer articles than that.")
        }
        hasOlder = hasOlder && number < Self.maximumPage
        let model: [String: MustacheValue] = [
            "articles": .list(items.map { .object(ArticleSummaryView(article: $0)) }),
            "has_articles": .bool(!items.isEmpty),
            "has_pager": .bool(number > 1 || hasOlder),
            "page": .int(number),
            "newer_url": number > 1 ? .string(number == 2 ? "/" : "/?page=\(number - 1)") : .null,
            "older_url": hasOlder ? .string("/?page=\(number + 1)") : .null,
        ]
        let title = number == 1 ? "Latest news" : "Latest news, page \(number)"
        return try views.page("front", title: title, model: model, context: context)
    }

    func articlePage(_ request: Request, _ context: RequestContext) throws -> Response {
        guard let slug = request.parameters["slug"] else { throw ArticleStore.noSuchArticle }
        guard PageCache.applies(to: context) else {
            return try page.render(try articles.article(for: request), context: context)
        }
        guard let user = context.user else {
            return try cache.response("article:\(slug):anonymous", context: context) { context in
                try page.render(try articles.article(for: request), context: context)
            }
        }
        // A reader's view differs from others' in the like form and in delete forms on their own
        // comments: share it between readers in the same like state who have no comment there.
        let article = try articles.article(for: request)
        let liked = try likes.likes(userID: user.id, articleID: article.id)
        guard try !comments.hasComment(byUserID: user.id, articleID: article.id) else {
            return try page.render(article, context: context, liked: liked)
        }
        return try cache.response("article:\(slug):reader:\(liked)", context: context) { context in
            try page.render(article, context: context, liked: liked)
        }
    }

    /// `?page=N`: absent means 1; otherwise decimal digits only, N ≥ 1 (SPEC: anything else is 400).
    /// A number too large for `Int` is still a page number, just past the last one.
    static func pageNumber(_ text: String?) throws(HTTPError) -> Int {
        guard let text else { return 1 }
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else {
            throw HTTPError(.badRequest, "The page number must be a whole number of 1 or more.")
        }
        guard let number = Int(text) else { return Int.max }
        guard number >= 1 else { throw HTTPError(.badRequest, "The page number must be a whole number of 1 or more.") }
        return number
    }
}
