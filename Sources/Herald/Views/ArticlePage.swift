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
        _ article: Article, context: RequestContext, liked knownLiked: Bool? = nil, commentsPage: Int = 1,
        draft: String = "", draftParent: Int? = nil, commentError: String? = nil, status: HTTPStatus = .ok
    ) throws -> Response {
        let liked =
            try knownLiked ?? context.user.map { try likes.likes(userID: $0.id, articleID: article.id) } ?? false
        let (list, hasMore) = try comments.threads(
            articleID: article.id, page: commentsPage, size: Comments.threadsPerPage)
        guard commentsPage == 1 || !list.isEmpty else {
            throw HTTPError(.notFound, "There is no page \(commentsPage) of comments on this article.")
        }
        let threads = CommentNode.threads(of: list)
        let now = clock.now()
        let page = ArticlePageModel(
            article: ArticlePageView(
                article: article, liked: liked, body: bodies.body(for: article), state: article.state(at: now)),
            comments: threads.map { CommentView(node: $0, viewer: context.user, now: now) },
            pager: Pager(
                base: ArticlePaths.article(article.slug), page: commentsPage, hasOlder: hasMore, parameter: "comments",
                fragment: "#comments"),
            draft: draft, draftParent: draftParent, commentError: commentError,
            commentAction: ArticlePaths.comments(article.slug))
        return try views.page(page, title: article.title, context: context, status: status, meta: Self.meta(article))
    }

    /// The article's canonical address and what a shared link shows (Open Graph).
    static func meta(_ article: Article) -> Views.PageMeta {
        let path = ArticlePaths.article(article.slug)
        var openGraph: [(property: String, content: String)] = [
            ("og:type", "article"), ("og:title", article.title), ("og:url", path),
            ("article:published_time", DateText.rfc3339(article.publishedAt)),
        ]
        if !article.summary.isEmpty { openGraph.insert(("og:description", article.summary), at: 2) }
        if let revised = article.revisedAt, revised > article.publishedAt {
            openGraph.append(("article:modified_time", DateText.rfc3339(revised)))
        }
        if !article.section.isEmpty { openGraph.append(("article:section", article.section)) }
        if let image = article.image {
            openGraph += [
                ("og:image", MediaPaths.media(image.name)), ("og:image:width", String(image.width)),
                ("og:image:height", String(image.height)), ("og:image:alt", image.alt),
            ]
        }
        return Views.PageMeta(
            description: article.summary.isEmpty ? nil : article.summary, canonicalPath: path, openGraph: openGraph)
    }
}

/// A comment in the template: its anchor, author, time, paragraphs, its replies, and the forms
/// its viewer may use — reply for everyone, edit (for 15 minutes) and delete for its author,
/// report for everyone else, hide or restore for moderators. A hidden comment keeps its place;
/// only moderators see its text, marked. Every key the comment template reads has a value here
/// (`.null`, not nil), so a reply never reads its parent's values through the context stack.
struct CommentView: MustacheObject {
    let node: CommentNode
    let viewer: User?
    let now: Int

    private var comment: Comment? { node.comment }
    private var isMine: Bool { comment.map { viewer?.id == $0.userID } ?? false }
    private var isModerator: Bool { Moderation.mayModerate(viewer) }
    private var isHidden: Bool { comment?.isHidden ?? false }

    func value(forKey key: String) -> MustacheValue? {
        let id = node.id
        switch key {
        case "id": return .int(id)
        case "anchor": return .string("comment-\(id)")
        case "depth": return .int(node.depth)
        case "parent_id": return comment?.parentID.map(MustacheValue.int) ?? .null
        case "is_deleted": return .bool(comment == nil)
        case "author": return comment.map { .string($0.author) } ?? .null
        case "author_url": return comment.map { .string("/users/" + PercentEncoding.encode($0.author)) } ?? .null
        case "date_iso": return comment.map { .string(DateText.rfc3339($0.createdAt)) } ?? .null
        // "3 hours ago", with the exact time (UTC) in the element's title.
        case "date_text": return comment.map { .string(DateText.relative($0.createdAt, now: now)) } ?? .null
        case "date_title": return comment.map { .string(DateText.dayAndTime($0.createdAt) + " UTC") } ?? .null
        case "is_edited": return .bool(comment?.editedAt != nil)
        case "is_hidden": return .bool(isHidden)
        case "shows_text": return .bool(comment != nil && (!isHidden || isModerator))
        case "paragraphs":
            guard let comment, !isHidden || isModerator else { return .list([]) }
            return .list(Paragraphs.split(comment.body).map(MustacheValue.string))
        case "is_mine": return .bool(isMine)
        case "can_edit": return .bool(comment.map { Comments.mayEdit($0, by: viewer, now: now) } ?? false)
        case "edit_url": return .string(CommentPaths.edit(id))
        case "delete_action": return .string(CommentPaths.delete(id))
        case "can_reply": return .bool(comment != nil && !isHidden)
        case "can_report": return .bool(comment != nil && !isHidden && !isMine)
        case "report_action": return .string(CommentPaths.report(id))
        case "reasons": return Self.reasons
        case "is_moderator": return .bool(isModerator && comment != nil)
        case "hide_action": return .string(CommentPaths.hide(id))
        case "restore_action": return .string(CommentPaths.restore(id))
        case "replies": return .list(node.replies.map { .object(CommentView(node: $0, viewer: viewer, now: now)) })
        case "has_replies": return .bool(!node.replies.isEmpty)
        default: return nil
        }
    }

    /// In the language of the page being rendered.
    private static var reasons: MustacheValue {
        .list(
            Moderation.Reason.allCases.map { reason in
                ["value": .string(reason.rawValue), "label": .string(Messages.rendering[reason.messageKey])]
            })
    }
}

extension Moderation.Reason {
    /// Its label's key in the catalogs (`reason_off_topic`).
    var messageKey: String { "reason_" + rawValue.replacing("-", with: "_") }
}
