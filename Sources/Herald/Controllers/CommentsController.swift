import HTTP

/// Posting comments (resumable: the text survives login) and deleting one's own.
struct CommentsController: Sendable {
    let comments: Comments
    let pages: ArticlePages
    let page: ArticlePage

    /// Posting a comment, as the pending-action mechanism captures and performs it.
    var postAction: ResumableAction {
        ResumableAction(
            .comment, keeping: ["body"], describe: describe,
            returnPath: { ArticlePaths.article(ArticleRoutes.slug($0)) },
            check: checkCapture, tooLarge: tooLargeToKeep, typedText: [("body", "Your comment")]
        ) { request, context in try post(request, &context) }
    }

    /// Deleting a comment: captured like any POST when logged out, and after login performed
    /// only for its author (the handler checks, as for a logged-in click).
    var deleteAction: ResumableAction {
        ResumableAction(
            .deleteComment,
            describe: { request in
                guard try comments.articleSlug(ofComment: Self.commentID(request)) != nil else {
                    throw Self.noSuchComment
                }
                return "delete your comment"
            },
            returnPath: { request in
                ((try? comments.articleSlug(ofComment: Self.commentID(request))) ?? nil).map(ArticlePaths.article)
                    ?? "/"
            }
        ) { request, context in try delete(request, &context) }
    }

    func addRoutes(to router: inout Router<RequestContext>, intents: PendingActions) {
        router.post("/articles/:slug/comments", intents.route(postAction))
        router.post("/comments/:id/delete", intents.route(deleteAction))
    }

    private static func commentID(_ request: Request) -> Int {
        request.parameters["id"].flatMap { Int($0) } ?? 0
    }

    static let noSuchComment = HTTPError(.notFound, "There is no such comment. It may already have been deleted.")

    /// Logged in: validate, rate-limit, add; 303 to the new comment's anchor.
    func post(_ request: Request, _ context: inout RequestContext) throws -> Response {
        guard let user = context.user else { throw HTTPError(.forbidden, "Please log in first.") }
        let draft = try request.form()["body"] ?? ""
        switch try comments.post(draft, on: ArticleRoutes.slug(request), by: user.id) {
        case .posted(let id, let article):
            context.nextFlash = "Your comment on “\(article.title)” is posted."
            return .redirect(to: ArticlePaths.article(article.slug) + "#comment-\(id)")
        case .invalid(let article, let problem):
            return try page.render(
                article, context: context, draft: draft, commentError: problem, status: .unprocessableContent)
        case .rateLimited(let wait, let perMinute):
            throw HTTPError.tooManyRequests(
                retryAfter: wait,
                "You are commenting faster than \(perMinute) comments a minute. Please wait \(wait) seconds and post again."
            )
        case .noSuchArticle:
            throw ArticleRoutes.noSuchArticle
        }
    }

    /// Its author only: others (and anonymous readers) get 403, an unknown id 404.
    func delete(_ request: Request, _ context: inout RequestContext) throws -> Response {
        switch try comments.delete(Self.commentID(request), by: context.user?.id) {
        case .deleted(let slug):
            context.nextFlash = "Your comment is deleted."
            return .redirect(to: slug.map(ArticlePaths.article) ?? "/")
        case .notTheAuthor:
            throw HTTPError(.forbidden, "Only the author of a comment can delete it.")
        case .noSuchComment:
            throw Self.noSuchComment
        }
    }

    private func describe(_ request: Request) throws -> String {
        guard let article = try pages.publishedArticle(ArticleRoutes.slug(request)) else { throw ArticleRoutes.noSuchArticle }
        let preview = Comments.preview((try? request.form()["body"] ?? "") ?? "")
        return "post your comment on “\(article.title)”: “\(preview)”"
    }

    /// Before an anonymous comment is kept: the same rules as posting, so an empty or too long one
    /// is answered now (422, the text kept in the form) rather than after the reader logged in.
    private func checkCapture(
        _ kept: [(String, String)], _ request: Request, _ context: RequestContext
    ) throws -> ResumableAction.Capture {
        let draft = kept.first { $0.0 == "body" }?.1 ?? ""
        switch Comments.check(draft) {
        case .valid(let text):
            return .keep([("body", text)])
        case .invalid(let problem):
            return .refuse(try articlePage(request, context, draft: draft, error: problem))
        }
    }

    /// Text too large for the intent cookie is never dropped: the article again, with it in the form.
    private func tooLargeToKeep(_ request: Request, _ context: RequestContext) throws -> Response {
        try articlePage(
            request, context, draft: try request.form()["body"] ?? "",
            error: "Your comment is too long to keep while you log in. Please log in first, then post it.")
    }

    private func articlePage(_ request: Request, _ context: RequestContext, draft: String, error: String) throws
        -> Response
    {
        guard let article = try pages.publishedArticle(ArticleRoutes.slug(request)) else { throw ArticleRoutes.noSuchArticle }
        return try page.render(
            article, context: context, draft: draft, commentError: error, status: .unprocessableContent)
    }
}
