/// Liking and unliking articles, and a reader's list of liked articles. Knows nothing of HTTP.
final class Likes: Sendable {
    enum Outcome: Sendable, Equatable {
        case liked(Article)
        case unliked(Article)
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
        guard let article = try articles.article(slug: slug), article.isPublished(at: clock.now()) else {
            return .noSuchArticle
        }
        if liked {
            try likes.like(userID: userID, articleID: article.id, at: clock.now())
            return .liked(article)
        }
        try likes.unlike(userID: userID, articleID: article.id)
        return .unliked(article)
    }

    /// The reader's liked articles, newest like first.
    func liked(by userID: Int) throws -> [Article] {
        try likes.likedArticles(userID: userID, now: clock.now())
    }
}
