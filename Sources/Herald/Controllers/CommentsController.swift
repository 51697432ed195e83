import HTTP
import Mustache

/// Posting comments and replies (resumable: the text survives login), editing them for a while,
/// and deleting one's own.
struct CommentsController: Sendable {
    let comments: Comments
    let pages: ArticlePages
    let page: ArticlePage
    let views: Views

    /// Posting, deleting and editing: resumable (the text survives login).
    var resumableActions: [AnyResumableAction] { [.init(postAction), .init(deleteAction), .init(editAction)] }

    func addRoutes(to router: inout Router<RequestContext>) {
        router.group("/comments", requires: RouteGuards.readers) { comments in
            comments.get("/:id/edit") { request, context in try editForm(request, context) }
        }
        router.get("/comments/:id") { request, context in try permalink(request, context) }
    }

    /// `/comments/{id}`: a comment's lasting address (the moderation record links to it), sent on
    /// to the page of its article that shows it.
    func permalink(_ request: Request, _ context: RequestContext) throws -> Response {
        let id = try request.require("id", as: Int.self, notFound: Self.noSuchComment)
        guard let location = try comments.location(of: id) else { throw Self.noSuchComment }
        return .redirect(to: location)
    }

    /// A comment or a reply as posted: its article, its text, and the comment it answers.
    struct CommentInput: ResumableInput {
        static let keptFields = ["body", "parent"]
        let slug: String
        let body: String
        /// The id of the comment answered, as sent (checked when posted); nil or empty: top level.
        let parent: String?

        init(_ form: KeptForm) {
            slug = form.parameter("slug")
            body = form.text("body")
            parent = form["parent"]
        }

        var isReply: Bool { parent?.isEmpty == false }
    }

    /// The comment a deletion names.
    struct CommentReference: ResumableInput {
        static let keptFields: [String] = []
        let id: Int

        init(_ form: KeptForm) throws(HTTPError) { id = try form.require("id", as: Int.self, notFound: noSuchComment) }
    }

    /// An edited comment's new text.
    struct CommentEdit: ResumableInput {
        static let keptFields = ["body"]
        let id: Int
        let body: String

        init(_ form: KeptForm) throws(HTTPError) {
            id = try form.require("id", as: Int.self, notFound: noSuchComment)
            body = form.text("body")
        }
    }

    static let typedComment: [(field: String, label: String)] = [("body", "Your comment")]

    var postAction: ResumableAction<CommentInput> {
        ResumableAction(
            name: .comment, path: "/articles/:slug/comments", describe: describe,
            returnPath: { ArticlePaths.article($0.slug) }, check: checkCapture,
            perform: { input, user, context, reply in try post(input, by: user, &context, reply) },
            typedText: Self.typedComment, formAgain: commentAgain)
    }

    /// Captured like any POST when logged out, and after login performed only for its author
    /// (`Comments.delete` checks, as for a logged-in click).
    var deleteAction: ResumableAction<CommentReference> {
        ResumableAction(
            name: .deleteComment, path: "/comments/:id/delete",
            describe: { input, messages in
                guard try comments.articleSlug(ofComment: input.id) != nil else { throw Self.noSuchComment }
                return messages["action_delete_comment"]
            },
            returnPath: { input in
                ((try? comments.articleSlug(ofComment: input.id)) ?? nil).map(ArticlePaths.article) ?? "/"
            },
            perform: { input, user, context, _ in try delete(input, by: user, &context) })
    }

    var editAction: ResumableAction<CommentEdit> {
        ResumableAction(
            name: .editComment, path: "/comments/:id/edit",
            describe: { input, messages in
                guard try comments.articleSlug(ofComment: input.id) != nil else { throw Self.noSuchComment }
                return messages.format("action_edit_comment", ["text": Comments.preview(input.body)])
            },
            returnPath: { CommentPaths.edit($0.id) },
            perform: { input, user, context, _ in try saveEdit(input, by: user, &context) },
            typedText: Self.typedComment, formAgain: editAgain)
    }

    static let noSuchComment = HTTPError(.notFound, "There is no such comment. It may already have been deleted.")

    /// Validate, rate-limit, add; 303 to the new comment's anchor on the page of comments that
    /// holds it (or, for the page's script, its id and HTML).
    func post(_ input: CommentInput, by user: User, _ context: inout RequestContext, _ reply: Reply) throws -> Response
    {
        switch try comments.post(input.body, on: input.slug, replyingTo: input.parent, by: user.id) {
        case .posted(let id, let article, let commentsPage):
            if reply == .json { return try postedJSON(id, article, context) }
            context.nextFlash = context.text(
                input.isReply ? "flash_reply_posted" : "flash_comment_posted", ["title": article.title])
            return .redirect(to: Comments.path(of: id, slug: article.slug, page: commentsPage))
        case .invalid(let article, let problem), .invalidParent(let article, let problem):
            if reply == .json {
                return .json(["error": context.messages.translated(problem)], status: .unprocessableContent)
            }
            return try page.render(
                article, context: context, draft: input.body, commentError: problem, status: .unprocessableContent)
        case .rateLimited(let wait, let perMinute):
            throw HTTPError.tooManyRequests(
                retryAfter: wait,
                context.text("error_commenting_fast", ["limit": String(perMinute), "seconds": String(wait)])
            )
        case .noSuchArticle:
            throw ArticleRoutes.noSuchArticle
        }
    }

    /// A comment (or reply) that was not posted: the article with the text back in the form. It
    /// waited too long while the reader logged in (not posted; SPEC "nothing typed is lost"), or it
    /// could not be kept while they log in (422).
    private func commentAgain(_ input: CommentInput, _ why: FormAgain, _ context: inout RequestContext) throws
        -> Response
    {
        guard let article = try pages.publishedArticle(input.slug) else { throw ArticleRoutes.noSuchArticle }
        switch why {
        case .waitedTooLong, .retypePassword:
            let parent = try input.parent.flatMap { try comments.answerable($0, on: article) }
            var shown = context
            shown.flash = Self.waitedTooLong(parent == nil ? "comment" : "reply", "posted")
            return try page.render(article, context: shown, draft: input.body, draftParent: parent?.id)
        case .notKept:
            return try page.render(
                article, context: context, draft: input.body,
                commentError: "Your comment is too long to keep while you log in. Please log in first, then post it.",
                status: .unprocessableContent)
        }
    }

    /// An edit that was not saved: the edit form with the text back, or, when the comment can no
    /// longer be edited by this reader, the text to copy.
    private func editAgain(_ input: CommentEdit, _ why: FormAgain, _ context: inout RequestContext) throws -> Response {
        let message =
            why == .notKept
            ? "Your edit is too long to keep while you log in. Please log in first, then save it."
            : Self.waitedTooLong("edit", "saved")
        var shown = context
        shown.flash = message
        if let user = context.user, case .editable(let comment) = try comments.editable(input.id, by: user.id) {
            return try editPage(comment, draft: input.body, context: shown)
        }
        return views.returnedText(
            message + " The comment can no longer be edited here; copy it from here.",
            status: why == .notKept ? .unprocessableContent : .ok, title: "Not saved",
            texts: [("Your comment", "body", input.body)], context: context)
    }

    static func waitedTooLong(_ what: String, _ done: String) -> String {
        "Your \(what) has not been \(done) yet — it waited too long while you logged in. Here it is."
    }

    /// SPEC's answer to a comment posted by the page's script: its id, its parent, and its HTML
    /// as the page would show it, to put in place.
    private func postedJSON(_ id: Int, _ article: Article, _ context: RequestContext) throws -> Response {
        guard let comment = try comments.comment(id: id) else { throw Self.noSuchComment }
        let node =
            CommentNode.threads(of: [comment]).first { $0.id == id }
            ?? CommentNode.threads(of: [comment]).flatMap(\.replies).first { $0.id == id }
        guard let node else { throw Self.noSuchComment }
        let html = try views.fragment(
            .comment, CommentView(node: node, viewer: context.user, now: comments.now),
            shared: [
                "csrf_token": .string(context.csrfToken),
                "comment_action": .string(ArticlePaths.comments(article.slug)),
            ], context: context)
        return .json(PostedComment(id: id, parent: comment.parentID, html: html))
    }

    struct PostedComment: Encodable {
        let id: Int
        let parent: Int?
        let html: String
    }

    // MARK: Editing

    func editForm(_ request: Request, _ context: RequestContext) throws -> Response {
        let user = try context.signedIn()
        let id = try request.require("id", as: Int.self, notFound: Self.noSuchComment)
        switch try comments.editable(id, by: user.id) {
        case .editable(let comment): return try editPage(comment, draft: comment.body, context: context)
        case .refused(let refusal): throw Self.error(for: refusal)
        }
    }

    func saveEdit(_ input: CommentEdit, by user: User, _ context: inout RequestContext) throws -> Response {
        switch try comments.edit(input.id, to: input.body, by: user.id) {
        case .edited(let comment, let article, let commentsPage):
            context.nextFlash = "Your comment is saved."
            return .redirect(to: Comments.path(of: comment.id, slug: article.slug, page: commentsPage))
        case .invalid(let comment, let problem):
            return try editPage(
                comment, draft: input.body, error: problem, context: context, status: .unprocessableContent)
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
        let page = CommentEditPage(
            commentID: comment.id, draft: draft, error: error,
            backURL: try comments.articleSlug(ofComment: comment.id).map(ArticlePaths.article) ?? "/")
        return try views.page(page, title: "Edit your comment", context: context, status: status)
    }

    /// Its author only: others get 403, an unknown id 404.
    func delete(_ input: CommentReference, by user: User, _ context: inout RequestContext) throws -> Response {
        switch try comments.delete(input.id, by: user.id) {
        case .deleted(let slug):
            context.nextFlash = "Your comment is deleted."
            return .redirect(to: slug.map(ArticlePaths.article) ?? "/")
        case .notTheAuthor:
            throw HTTPError(.forbidden, "Only the author of a comment can delete it.")
        case .noSuchComment:
            throw Self.noSuchComment
        }
    }

    private func describe(_ input: CommentInput, _ messages: Messages) throws -> String {
        guard let article = try pages.publishedArticle(input.slug) else { throw ArticleRoutes.noSuchArticle }
        return messages.format(
            input.isReply ? "action_reply" : "action_comment",
            ["title": article.title, "text": Comments.preview(input.body)])
    }

    /// Before an anonymous comment is kept: the same rules as posting, so an empty or too long one
    /// is answered now (422, the text kept in the form) rather than after the reader logged in.
    private func checkCapture(_ input: CommentInput, _ form: KeptForm, _ context: RequestContext) throws -> Capture {
        switch Comments.check(input.body) {
        case .valid(let text):
            var kept = form
            kept.fields = [("body", text)]
            // A reply keeps the comment it answers, which must be answerable now; whether it still
            // is when it is posted is checked again then (if not, the text comes back).
            guard let parentText = input.parent, !parentText.isEmpty else { return .keep(kept) }
            guard let article = try pages.publishedArticle(input.slug),
                let parent = try comments.answerable(parentText, on: article)
            else {
                return .refuse(try articlePage(input, context, error: Comments.parentGone))
            }
            kept.fields.append(("parent", String(parent.id)))
            return .keep(kept)
        case .invalid(let problem):
            return .refuse(try articlePage(input, context, error: problem))
        }
    }

    private func articlePage(_ input: CommentInput, _ context: RequestContext, error: String) throws -> Response {
        guard let article = try pages.publishedArticle(input.slug) else { throw ArticleRoutes.noSuchArticle }
        return try page.render(
            article, context: context, draft: input.body, commentError: error, status: .unprocessableContent)
    }
}
