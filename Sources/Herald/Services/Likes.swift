/// Liking and unliking articles, and a reader's list of liked articles. Knows nothing of HTTP.
final class Likes: Sendable {
    enum Outcome: Sendable, Equatable {
        /// Done; the article, and its like count right after.
        case liked(LikeStore.Change)
        case unliked(LikeStore.Change)
        case noSuchArticle
    }

    private let likes: LikeStore
    private let clock: Clock

    init(likes: LikeStore, clock: Clock) {
        self.likes = likes
        self.clock = clock
    }

    /// Likes (idempotent: twice counts once) or unlikes the article for the reader.
    func change(_ slug: String, liked: Bool, by userID: Int) throws -> Outcome {
        guard let change = try likes.change(slug: slug, userID: userID, liked: liked, now: clock.now()) else {
            return .noSuchArticle
        }
        return liked ? .liked(change) : .unliked(change)
    }

    /// The reader's liked articles, newest like first.
    func liked(by userID: Int) throws -> [Article] {
        try likes.likedArticles(userID: userID, now: clock.now())
    }
}
