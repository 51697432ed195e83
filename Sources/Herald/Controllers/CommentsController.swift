import HTTP
import Mustache

/// Posting comments and replies (resumable: the text survives login), editing them for a while,
/// and deleting one's own.
struct CommentsController: Sendable {
    let comments: Comments
    let pages: ArticlePages
    let page: ArticlePage
    let views: Views

    /// Posting a comment, as the pending-action mechanism captures and performs it.
    var postAction: ResumableAction {
        ResumableAction(
            .comment, keeping: ["body", "parent"], describe: describe,
            returnPath: { ArticlePaths.article(ArticleRoutes.slug($0)) },
            check: checkCapture, tooLarge: tooLargeToKeep, typedText: [("body", "Your comment")],
            putBack: putBackComment
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

    /// Editing a comment: resumable like posting (the text survives an expired session).
    var editAction: ResumableAction {
        ResumableAction(
            .editComment, keeping: ["body"],
            describe: { request in
                guard try comments.articleSlug(ofComment: Self.commentID(request)) != nil else {
                    throw Self.noSuchComment
                }
                return "save your edited comment: “\(Comments.preview((try? request.form()["body"] ?? "") ?? ""))”"
            },
            returnPath: { request in Self.editPath(Self.commentID(request)) },
            typedText: [("body", "Your comment")], putBack: putBackEdit
        ) { request, context in try saveEdit(request, &context) }
    }

    func addRoutes(to router: inout Router<RequestContext>, intents: PendingActions) {
        router.post("/articles/:slug/comments", intents.route(postAction))
        router.post("/comments/:id/delete", intents.route(deleteAction))
        router.get("/comments/:id/edit") { request, context in try editForm(request, context) }
        router.post("/comments/:id/edit", intents.route(editAction))
    }

    static func editPath(_ id: Int) -> String { "/comments/\(id)/edit" }

    private static func commentID(_ request: Request) -> Int {
        request.parameters["id"].flatMap { Int($0) } ?? 0
    }

    static let noSuchComment = HTTPError(.notFound, "There is no such comment. It may already have been deleted.")

    /// Logged in: validate, rate-limit, add; 303 to the new comment's anchor on the page of
    /// comments that holds it.
    func post(_ request: Request, _ context: inout RequestContext) throws -> Response {
        guard let user = context.user else { throw HTTPError(.forbidden, "Please log in first.") }
        let form = try request.form()
        let draft = form["body"] ?? ""
        let parent = form["parent"]
        switch try comments.post(draft, on: ArticleRoutes.slug(request), replyingTo: parent, by: user.id) {
        case .posted(let id, let article, let commentsPage):
            if request.prefersJSON { return try postedJSON(id, article, context) }
            context.nextFlash =
                parent?.isEmpty == false
                ? "Your reply on “\(article.title)” is posted." : "Your comment on “\(article.title)” is posted."
            return .redirect(to: Comments.path(of: id, slug: article.slug, page: commentsPage))
        case .invalid(let article, let problem), .invalidParent(let article, let problem):
            if request.prefersJSON { return .json(["error": problem], status: .unprocessableContent) }
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

    /// A comment (or reply) whose intent waited too long: the article with the text back in the
    /// form, not posted (SPEC "nothing typed is lost").
    private func putBackComment(_ replay: Request, _ context: RequestContext) throws -> Response {
        guard let article = try pages.publishedArticle(ArticleRoutes.slug(replay)) else {
            throw ArticleRoutes.noSuchArticle
        }
        let form = try replay.form()
        let parent = try form["parent"].flatMap { try comments.answerable($0, on: article) }
        var shown = context
        shown.flash = Self.waitedTooLong(parent == nil ? "comment" : "reply", "posted")
        return try page.render(article, context: shown, draft: form["body"] ?? "", draftParent: parent?.id)
    }

    /// An edit whose intent waited too long: the edit form with the text back, or, when the comment
    /// can no longer be edited, the text to copy.
    private func putBackEdit(_ replay: Request, _ context: RequestContext) throws -> Response {
        let draft = try replay.form()["body"] ?? ""
        var shown = context
        shown.flash = Self.waitedTooLong("edit", "saved")
        if let user = context.user, case .editable(let comment) = try comments.editable(Self.commentID(replay), by: user.id) {
            return try editPage(comment, draft: draft, context: shown)
        }
        return views.returnedText(
            Self.waitedTooLong("edit", "saved") + " The comment can no longer be edited; copy it from here.",
            status: .ok, title: "Not saved", texts: [("Your comment", "body", draft)], context: context)
    }

    static func waitedTooLong(_ what: String, _ done: String) -> String {
        "Your \(what) has not been \(done) yet — it waited too long while you logged in. Here it is."
    }

    /// SPEC's answer to a comment posted by the page's script: its id, its parent, and its HTML
    /// as the page would show it, to put in place.
    private func postedJSON(_ id: Int, _ article: Article, _ context: RequestContext) throws -> Response {
        guard let comment = try comments.comment(id: id) else { throw Self.noSuchComment }
        let node = CommentNode.threads(of: [comment]).first { $0.id == id }
            ?? CommentNode.threads(of: [comment]).flatMap(\.replies).first { $0.id == id }
        guard let node else { throw Self.noSuchComment }
        let html = try views.fragment(
            "comment", CommentView(node: node, viewer: context.user, now: comments.now),
            shared: [
                "csrf_token": .string(context.csrfToken), "comment_action": .string(ArticlePaths.comments(article.slug)),
            ])
        return .json(PostedComment(id: id, parent: comment.parentID, html: html))
    }

    struct PostedComment: Encodable {
        let id: Int
        let parent: Int?
        let html: String
    }

    // MARK: Editing

    func editForm(_ request: Request, _ context: RequestContext) throws -> Response {
        switch try PageAccess.check(request, context) {
        case .loginFirst(let redirect): return redirect
        case .allowed(let user):
            switch try comments.editable(Self.commentID(request), by: user.id) {
            case .editable(let comment): return try editPage(comment, draft: comment.body, context: context)
            case .refused(let refusal): throw Self.error(for: refusal)
            }
        }
    }

    func saveEdit(_ request: Request, _ context: inout RequestContext) throws -> Response {
        guard let user = context.user else { throw HTTPError(.forbidden, "Please log in first.") }
        let draft = try request.form()["body"] ?? ""
        switch try comments.edit(Self.commentID(request), to: draft, by: user.id) {
        case .edited(let comment, let article, let commentsPage):
            context.nextFlash = "Your comment is saved."
            return .redirect(to: Comments.path(of: comment.id, slug: article.slug, page: commentsPage))
        case .invalid(let comment, let problem):
            return try editPage(comment, draft: draft, error: problem, context: context, status: .unprocessableContent)
        case let refusal:
            throw Self.error(for: refusal)
        }
    }

    private static func error(for refusal: Comments.EditOutcome) -> HTTPError {
        switch refusal {
        case .notTheAuthor: HTTPError(.forbidden, "Only the author of a comment can edit it.")
        case .closed(let reason): HTTPError(.forbidden, reason)
        case .noSuchComment, .edited, .invalid: noSuchComment
        }
    }

    private func editPage(
        _ comment: Comment, draft: String, error: String? = nil, context: RequestContext, status: HTTPStatus = .ok
    ) throws -> Response {
        let model: [String: MustacheValue] = [
            "action": .string(Self.editPath(comment.id)),
            "draft": .string(draft),
            "error": error.map(MustacheValue.string) ?? .null,
            "back_url": .string(try comments.articleSlug(ofComment: comment.id).map(ArticlePaths.article) ?? "/"),
        ]
        return try views.page("comment-edit", title: "Edit your comment", model: model, context: context, status: status)
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
            // A reply keeps the comment it answers, which must be answerable now; whether it still
            // is when it is posted is checked again then (if not, the text comes back).
            guard let parentText = kept.first(where: { $0.0 == "parent" })?.1, !parentText.isEmpty else {
                return .keep([("body", text)])
            }
            guard let article = try pages.publishedArticle(ArticleRoutes.slug(request)),
                let parent = try comments.answerable(parentText, on: article)
            else {
                return .refuse(try articlePage(request, context, draft: draft, error: Comments.parentGone))
            }
            return .keep([("body", text), ("parent", String(parent.id))])
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
