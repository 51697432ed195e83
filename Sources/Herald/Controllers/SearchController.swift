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
        var model: [String: MustacheValue] = ["query": .string(query)]
        switch try search.search(query, page: number) {
        case .empty:
            return try views.page("search", title: "Search", model: model, context: context)
        case .tooLong:
            throw HTTPError(
                .badRequest, "A search may be at most \(Search.maximumQueryCharacters) characters. Please shorten it.")
        case .pastTheLast:
            throw HTTPError(.notFound, "There is no page \(number) of results for this search.")
        case .results(let results, let hasMore):
            let base = "/search?q=" + PercentEncoding.encode(query)
            model["has_query"] = .bool(true)
            model["has_results"] = .bool(!results.isEmpty)
            model["results"] = .list(
                results.map { result in
                    var values: [String: MustacheValue] = [
                        "snippet_html": .string(result.snippetHTML)
                    ]
                    let summary = ArticleSummaryView(article: result.article)
                    for key in ["title", "url", "section", "section_url", "date_iso", "date_text", "author"] {
                        values[key] = summary.value(forKey: key) ?? .null
                    }
                    return .dictionary(MustacheDictionary(values))
                })
            model["newer_url"] = number > 1 ? .string(number == 2 ? base : base + "&page=\(number - 1)") : .null
            model["older_url"] = hasMore ? .string(base + "&page=\(number + 1)") : .null
            let title = "Search: \(query)" + (number > 1 ? ", page \(number)" : "")
            return try views.page("search", title: title, model: model, context: context)
        }
    }
}
