/// Liking and unliking articles, and a reader's list of liked articles. Knows nothing of HTTP.
final class Likes: Sendable {
    enum Outcome: Sendable, Equatable {
        /// Done; the article, and its like count right after.
        case liked(Article, count: Int)
        case unliked(Article, count: Int)
        case noSuchArticle
    }

    private let articles: ArticleStore
    private let likes: LikeStore
    private let clock: Clock

    init(articles: ArticleStore, likes: LikeStore, clock: Clock) {
        self.articles = articles
        self.likes = likes
        self.clock = clock
    }

    /// Likes (idempotent: twice counts once) or unlikes the article for the reader.
    func change(_ slug: String, liked: Bool, by userID: Int) throws -> Outcome {
        guard let article = try articles.articleWithoutBody(slug: slug), article.isPublished(at: clock.now()) else {
            return .noSuchArticle
        }
        if liked {
            return .liked(article, count: try likes.like(userID: userID, articleID: article.id, at: clock.now()))
        }
        return .unliked(article, count: try likes.unlike(userID: userID, articleID: article.id))
    }

    /// The reader's liked articles, newest like first.
    func liked(by userID: Int) throws -> [Article] {
        try likes.likedArticles(userID: userID, now: clock.now())
    }
}
