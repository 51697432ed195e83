/// Posting and deleting comments, with their rules: the text (`CommentText`) and a rate limit
/// per reader. Knows nothing of HTTP.
final class Comments: Sendable {
    enum PostOutcome: Sendable, Equatable {
        case posted(id: Int, on: Article)
        /// The text breaks a rule; `problem` says which, in words for the reader.
        case invalid(Article, problem: String)
        case rateLimited(retryAfterSeconds: Int, perMinute: Int)
        case noSuchArticle
    }

    enum DeleteOutcome: Sendable, Equatable {
        /// Deleted; the slug of its article (nil if the article went meanwhile).
        case deleted(articleSlug: String?)
        case notTheAuthor
        case noSuchComment
    }

    /// A draft checked before it is kept for later (an anonymous reader's comment).
    enum DraftCheck: Sendable, Equatable {
        case valid(normalized: String)
        case invalid(problem: String)
    }

    private let articles: ArticleStore
    private let comments: CommentStore
    private let limiter: RateLimiter
    private let clock: Clock
    /// Comments one reader may post per minute.
    let perMinute: Int

    init(articles: ArticleStore, comments: CommentStore, limiter: RateLimiter, clock: Clock, perMinute: Int) {
        self.articles = articles
        self.comments = comments
        self.limiter = limiter
        self.clock = clock
        self.perMinute = perMinute
    }

    static func check(_ draft: String) -> DraftCheck {
        let text = CommentText.normalized(draft)
        if let problem = CommentText.problem(text) { return .invalid(problem: problem) }
        return .valid(normalized: text)
    }

    func post(_ draft: String, on slug: String, by userID: Int) throws -> PostOutcome {
        guard let article = try articles.article(slug: slug), article.isPublished(at: clock.now()) else {
            return .noSuchArticle
        }
        let text: String
        switch Self.check(draft) {
        case .invalid(let problem): return .invalid(article, problem: problem)
        case .valid(let normalized): text = normalized
        }
        if case .retryAfter(let seconds) = try limiter.check(.init("comment:\(userID)", limit: perMinute, window: 60)) {
            return .rateLimited(retryAfterSeconds: seconds, perMinute: perMinute)
        }
        let id = try comments.add(articleID: article.id, userID: userID, body: text, at: clock.now())
        return .posted(id: id, on: article)
    }

    /// Its author only.
    func delete(_ id: Int, by userID: Int?) throws -> DeleteOutcome {
        guard id > 0, let comment = try comments.comment(id: id) else { return .noSuchComment }
        guard let userID, userID == comment.userID, try comments.delete(id: id, byUserID: userID) else {
            return .notTheAuthor
        }
        return .deleted(articleSlug: try articles.slug(id: comment.articleID))
    }

    /// Where a comment lives, for the page a pending deletion returns to; nil for an unknown one.
    func articleSlug(ofComment id: Int) throws -> String? {
        guard id > 0, let comment = try comments.comment(id: id) else { return nil }
        return try articles.slug(id: comment.articleID)
    }

    /// The start of a draft, for "Log in to post your comment on “Title”: “First words…”".
    static func preview(_ draft: String) -> String { CommentText.preview(draft) }
}
