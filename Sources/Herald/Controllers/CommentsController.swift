import HTTP

/// Posting comments (resumable: the text survives login) and deleting one's own.
struct CommentsController: Sendable {
    let articles: ArticleStore
    let comments: CommentStore
    let limiter: RateLimiter
    let page: ArticlePage
    let intents: PendingActions
    let clock: Clock
    /// Comments one reader may post per minute.
    let perMinute: Int

    func addRoutes(to router: inout Router<RequestContext>) {
        router.post(
            "/articles/:slug/comments",
            intents.resumable(
                "comment", keeping: ["body"], describe: describe, returnPath: returnPath, check: checkCapture,
                tooLarge: tooLargeToKeep
            ) {
                request, context in try post(request, &context)
            })
        router.post("/comments/:id/delete") { request, context in try delete(request, &context) }
    }

    /// Logged in: validate, rate-limit, add; 303 to the new comment's anchor.
    func post(_ request: Request, _ context: inout RequestContext) throws -> Response {
        guard let user = context.user else { throw HTTPError(.forbidden, "Please log in first.") }
        let article = try articles.article(for: request)
        let draft = try request.form()["body"] ?? ""
        let text = CommentText.normalized(draft)
        if let problem = CommentText.problem(text) {
            return try page.render(
                article, context: context, draft: draft, commentError: problem, status: .unprocessableContent)
        }
        let perReader = RateLimiter.Rule("comment:\(user.id)", limit: perMinute, window: 60)
        if case .retryAfter(let wait) = try limiter.check(perReader) {
            var headers = HTTPHeaders()
            headers.add("Retry-After", String(wait))
            throw HTTPError(
                .tooManyRequests,
                "You are commenting faster than \(perMinute) comments a minute. Please wait \(wait) seconds and post again.",
                headers: headers)
        }
        let now = clock.now()
        let id = try comments.add(articleID: article.id, userID: user.id, body: text, at: now)
        context.nextFlash = "Your comment on “\(article.title)” is posted."
        return .redirect(to: ArticlePaths.article(article.slug) + "#comment-\(id)")
    }

    /// Its author only: others (and anonymous readers) get 403, an unknown id 404.
    func delete(_ request: Request, _ context: inout RequestContext) throws -> Response {
        guard let id = request.parameters["id"].flatMap({ Int($0) }), id > 0, let comment = try comments.comment(id: id)
        else { throw HTTPError(.notFound, "There is no such comment. It may already have been deleted.") }
        guard let user = context.user, user.id == comment.userID,
            try comments.delete(id: id, byUserID: user.id)
        else { throw HTTPError(.forbidden, "Only the author of a comment can delete it.") }
        context.nextFlash = "Your comment is deleted."
        let slug = try articles.slug(id: comment.articleID) ?? ""
        return .redirect(to: slug.isEmpty ? "/" : ArticlePaths.article(slug))
    }

    private func describe(_ request: Request) throws -> String {
        let title = try articles.article(for: request).title
        let preview = CommentText.preview((try? request.form()["body"] ?? "") ?? "")
        return "post your comment on “\(title)”: “\(preview)”"
    }

    private func returnPath(_ request: Request) -> String {
        ArticlePaths.article(request.parameters["slug"] ?? "")
    }

    /// Before an anonymous comment is kept: the same rules as posting, so an empty or too long one
    /// is answered now (422, the text kept in the form) rather than after the reader logged in.
    private func checkCapture(
        _ kept: [(String, String)], _ request: Request, _ context: RequestContext
    ) throws -> ResumableAction.Capture {
        let draft = kept.first { $0.0 == "body" }?.1 ?? ""
        let text = CommentText.normalized(draft)
        guard let problem = CommentText.problem(text) else { return .keep([("body", text)]) }
        return .refuse(
            try page.render(
                try articles.article(for: request), context: context, draft: draft, commentError: problem,
                status: .unprocessableContent))
    }

    /// Text too large for the intent cookie is never dropped: the article again, with it in the form.
    private func tooLargeToKeep(_ request: Request, _ context: RequestContext) throws -> Response {
        try page.render(
            try articles.article(for: request), context: context, draft: try request.form()["body"] ?? "",
            commentError: "Your comment is too long to keep while you log in. Please log in first, then post it.",
            status: .unprocessableContent)
    }
}
