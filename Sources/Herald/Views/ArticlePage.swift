import HTTP
import Mustache

/// Renders an article's page: the article, its like form, its comments and the comment form.
/// Shared by the article route and by the comment routes that show the page again with the
/// reader's text kept (422).
struct ArticlePage: Sendable {
    let likes: LikeStore
    let comments: CommentStore
    let views: Views
    /// Decides whether the page says it is a draft or scheduled (shown to editors only).
    let clock: Clock
    let bodies = ArticleBodies()

    func render(
        _ article: Article, context: RequestContext, liked knownLiked: Bool? = nil, draft: String = "",
        commentError: String? = nil, status: HTTPStatus = .ok
    ) throws -> Response {
        let liked =
            try knownLiked ?? context.user.map { try likes.likes(userID: $0.id, articleID: article.id) } ?? false
        let list = try comments.comments(articleID: article.id)
        let model: [String: MustacheValue] = [
            "article": .object(
                ArticlePageView(
                    article: article, liked: liked, bodyHTML: bodies.html(for: article), state: article.state(at: clock.now()))),
            "comments": .list(list.map { .object(CommentView(comment: $0, viewer: context.user)) }),
            "has_comments": .bool(!list.isEmpty),
            "comment_draft": .string(draft),
            "comment_error": commentError.map(MustacheValue.string) ?? .null,
            "comment_action": .string(ArticlePaths.comments(article.slug)),
        ]
        return try views.page("article", title: article.title, model: model, context: context, status: status)
    }
}

/// A comment in the template: its anchor, author, time, paragraphs, and the forms its viewer may
/// use — delete for its author, report for everyone else, hide or restore for moderators. A hidden
/// comment keeps its place; only moderators see its text, marked.
struct CommentView: MustacheObject {
    let comment: Comment
    let viewer: User?

    private var isMine: Bool { viewer?.id == comment.userID }
    private var isModerator: Bool { viewer?.roles.grants(.moderator) == true }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "id": .int(comment.id)
        case "anchor": .string("comment-\(comment.id)")
        case "author": .string(comment.author)
        case "author_url": .string("/users/" + PercentEncoding.encode(comment.author))
        case "date_iso": .string(DateText.rfc3339(comment.createdAt))
        case "date_text": .string(DateText.long(comment.createdAt))
        case "is_hidden": .bool(comment.isHidden)
        case "shows_text": .bool(!comment.isHidden || isModerator)
        case "paragraphs":
            !comment.isHidden || isModerator ? .list(Paragraphs.split(comment.body).map(MustacheValue.string)) : .null
        case "is_mine": .bool(isMine)
        case "delete_action": .string("/comments/\(comment.id)/delete")
        case "can_report": .bool(!comment.isHidden && !isMine)
        case "report_action": .string("/comments/\(comment.id)/report")
        case "reasons": Self.reasons
        case "is_moderator": .bool(isModerator)
        case "hide_action": .string("/comments/\(comment.id)/hide")
        case "restore_action": .string("/comments/\(comment.id)/restore")
        default: nil
        }
    }

    private static let reasons: MustacheValue = .list(
        Moderation.Reason.allCases.map { reason in
            ["value": .string(reason.rawValue), "label": .string(reason.label)]
        })
}
