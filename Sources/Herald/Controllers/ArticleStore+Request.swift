import HTTP

extension ArticleStore {
    /// The article named by the route's `:slug`, or the 404 every article route answers.
    func article(for request: Request) throws -> Article {
        guard let slug = request.parameters["slug"], let article = try article(slug: slug) else {
            throw Self.noSuchArticle
        }
        return article
    }

    static let noSuchArticle = HTTPError(
        .notFound, "We could not find that article. It may have been moved or removed.")
}
