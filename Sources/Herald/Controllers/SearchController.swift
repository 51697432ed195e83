import HTTP
import Mustache

/// `GET /search?q=…&page=N`.
struct SearchController: Sendable {
    let search: Search
    let views: Views

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/search") { request, context in try results(request, context) }
    }

    func results(_ request: Request, _ context: RequestContext) throws -> Response {
        let query = request.query["q"] ?? ""
        let number = try ArticlesController.pageNumber(request.query["page"])
        switch try search.search(query, page: number) {
        case .empty:
            return try views.page(SearchPage(query: query, results: nil), title: "Search", context: context)
        case .tooLong:
            throw HTTPError(
                .badRequest, "A search may be at most \(Search.maximumQueryCharacters) characters. Please shorten it.")
        case .pastTheLast:
            throw HTTPError(.notFound, "There is no page \(number) of results for this search.")
        case .results(let results, let hasMore, let matches, let orMore):
            let page = SearchPage(
                query: query, results: results, page: number, hasMore: hasMore, matches: matches, orMore: orMore)
            let title =
                number > 1
                ? context.text("title_search_page", ["query": query, "page": String(number)])
                : context.text("title_search", ["query": query])
            return try views.page(page, title: title, context: context)
        }
    }
}
