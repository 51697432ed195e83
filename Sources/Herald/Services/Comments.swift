/// Posting, replying to, editing and deleting comments, with their rules: the text
/// (`CommentText`), what may be answered, how long a comment may be edited, and a rate limit per
/// reader. Knows nothing of HTTP.
final class Comments: Sendable {
    /// Top-level conversations on one page of an article's comments.
    static let threadsPerPage = 100
    /// How long after posting its author may still edit a comment.
    static let editWindowSeconds = 15 * 60

    enum PostOutcome: Sendable, Equatable {
        /// Posted; its id, its article, and the page of comments that holds it.
        case posted(id: Int, on: Article, page: Int)
        /// The text breaks a rule; `problem` says which, in words for the reader.
        case invalid(Article, problem: String)
        /// `parent` is not a visible comment on this article.
        case invalidParent(Article, problem: String)
        case rateLimited(retryAfterSeconds: Int, perMinute: Int)
        case noSuchArticle
    }

    enum EditOutcome: Sendable, Equatable {
        case edited(Comment, on: Article, page: Int)
        case invalid(Comment, problem: String)
        case notTheAuthor
        /// Past the edit window (or hidden by a moderator): 403 with why.
        case closed(reason: String)
        case noSuchComment
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

    func post(_ draft: String, on slug: String, replyingTo parentText: String? = nil, by userID: Int) throws
        -> PostOutcome
    {
        guard let article = try articles.article(slug: slug), article.isPublished(at: clock.now()) else {
            return .noSuchArticle
        }
        let text: String
        switch Self.check(draft) {
        case .invalid(let problem): return .invalid(article, problem: problem)
        case .valid(let normalized): text = normalized
        }
        var parent: Comment?
        if let parentText, !parentText.isEmpty {
            guard let found = try answerable(parentText, on: article) else {
                return .invalidParent(article, problem: Self.parentGone)
            }
            parent = found
        }
        if case .retryAfter(let seconds) = try limiter.check(.init("comment:\(userID)", limit: perMinute, window: 60)) {
            return .rateLimited(retryAfterSeconds: seconds, perMinute: perMinute)
        }
        let id = try comments.add(articleID: article.id, userID: userID, body: text, parent: parent, at: clock.now())
        guard let posted = try comments.comment(id: id) else { return .noSuchArticle }
        return .posted(id: id, on: article, page: try comments.page(holding: posted, size: Self.threadsPerPage))
    }

    var now: Int { clock.now() }

    static let parentGone =
        "The comment you are answering is not on this article (or is no longer shown). Your reply is below: post it as a comment, or copy it."

    func comment(id: Int) throws -> Comment? {
        try comments.comment(id: id)
    }

    /// The comment `parent` names when it is a visible comment on `article`; nil otherwise.
    func answerable(_ parent: String, on article: Article) throws -> Comment? {
        guard parent.utf8.count <= 18, let id = Int(parent), id > 0, let comment = try comments.comment(id: id),
            comment.articleID == article.id, !comment.isHidden
        else { return nil }
        return comment
    }

    /// Replaces the text of comment `id` for its author, within `editWindowSeconds` of posting.
    func edit(_ id: Int, to draft: String, by userID: Int) throws -> EditOutcome {
        let found: Comment
        switch try editable(id, by: userID) {
        case .editable(let comment): found = comment
        case .refused(let refusal): return refusal
        }
        switch Self.check(draft) {
        case .invalid(let problem):
            return .invalid(found, problem: problem)
        case .valid(let text):
            guard let article = try articles.article(id: found.articleID) else { return .noSuchComment }
            try comments.edit(id: id, body: text, at: clock.now())
            var edited = found
            edited.body = text
            return .edited(edited, on: article, page: try comments.page(holding: found, size: Self.threadsPerPage))
        }
    }

    enum Editability: Sendable, Equatable {
        case editable(Comment)
        case refused(EditOutcome)
    }

    /// Whether `user` may edit `comment` at `now`: its author, within the edit window, while a
    /// moderator has not hidden it. Pages ask this before offering the Edit link.
    static func mayEdit(_ comment: Comment, by user: User?, now: Int) -> Bool {
        comment.userID == user?.id && !comment.isHidden && now - comment.createdAt <= editWindowSeconds
    }

    /// The comment when `userID` may edit it now, or why not.
    func editable(_ id: Int, by userID: Int) throws -> Editability {
        guard id > 0, let comment = try comments.comment(id: id) else { return .refused(.noSuchComment) }
        guard comment.userID == userID else { return .refused(.notTheAuthor) }
        if comment.isHidden {
            return .refused(.closed(reason: "A moderator removed this comment, so it can no longer be edited."))
        }
        guard clock.now() - comment.createdAt <= Self.editWindowSeconds else {
            return .refused(
                .closed(reason: "A comment can be edited for 15 minutes after it is posted, and that time is up."))
        }
        return .editable(comment)
    }

    static let repliesPerPage = 20

    /// A reply to one of the reader's comments, with where it is read.
    struct ReplyToReader: Sendable, Equatable {
        var reply: CommentStore.Reply
        var path: String
    }

    /// Replies to the reader's comments, newest first, and whether an older page exists. Opening
    /// the first page marks every reply read (the header's count goes).
    func replies(to reader: User, page: Int) throws -> (replies: [ReplyToReader], hasMore: Bool)? {
        let (replies, hasMore) = try comments.replies(
            to: reader.id, page: page, size: Self.repliesPerPage, threadsPerPage: Self.threadsPerPage, now: clock.now())
        if replies.isEmpty && page > 1 { return nil }
        let located = replies.map { reply in
            ReplyToReader(
                reply: reply, path: Self.path(of: reply.comment.id, slug: reply.articleSlug, page: reply.commentsPage))
        }
        if reader.unreadReplies > 0 || replies.contains(where: \.isUnread) {
            try comments.markRepliesRead(of: reader.id)
        }
        return (located, hasMore)
    }

    /// Where a comment is read: its article's page of comments that holds it, at its anchor.
    static func path(of id: Int, slug: String, page: Int) -> String {
        ArticlePaths.article(slug) + (page > 1 ? "?comments=\(page)" : "") + "#comment-\(id)"
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
    /// Where comment `id` is read: its article's page of comments, at its anchor. Nil when there
    /// is no such comment or its article is not published (a draft's address is not given away).
    func location(of id: Int) throws -> String? {
        guard id > 0, let comment = try comments.comment(id: id),
            let article = try articles.article(id: comment.articleID),
            article.isPublished(at: clock.now())
        else { return nil }
        return Self.path(
            of: id, slug: article.slug, page: try comments.page(holding: comment, size: Self.threadsPerPage))
    }

    func articleSlug(ofComment id: Int) throws -> String? {
        guard id > 0, let comment = try comments.comment(id: id) else { return nil }
        return try articles.slug(id: comment.articleID)
    }

    /// The start of a draft, for "Log in to post your comment on “Title”: “First words…”".
    static func preview(_ draft: String) -> String { CommentText.preview(draft) }
}
