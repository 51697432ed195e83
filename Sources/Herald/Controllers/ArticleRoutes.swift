import HTTP

/// What every article route shares: the `:slug` it names, and the 404 for an unknown one.
enum ArticleRoutes {
    static func slug(_ request: Request) -> String {
        request.parameters["slug"] ?? ""
    }

    static let noSuchArticle = HTTPError(
        .notFound, "We could not find that article. It may have been moved or removed.")
}
