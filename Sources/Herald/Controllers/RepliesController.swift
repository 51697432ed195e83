import HTTP
import Mustache

/// `/me/replies`: replies to the reader's comments, newest first; opening it marks them read.
struct RepliesController: Sendable {
    let comments: Comments
    let views: Views

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/me/replies") { request, context in try replies(request, context) }
    }

    func replies(_ request: Request, _ context: RequestContext) throws -> Response {
        let reader: User
        switch try PageAccess.check(request, context) {
        case .allowed(let user): reader = user
        case .loginFirst(let redirect): return redirect
        }
        let number = try ArticlesController.pageNumber(request.query["page"])
        guard let (replies, hasMore) = try comments.replies(to: reader, page: number) else {
            throw HTTPError(.notFound, "There is no page \(number) of your replies.")
        }
        // The page shows the header as it was before opening it: the count goes from the next page on.
        var shown = context
        shown.user?.unreadReplies = 0
        let model: [String: MustacheValue] = [
            "replies": .list(
                replies.map { located in
                    let comment = located.reply.comment
                    return [
                        "url": .string(located.path), "author": .string(comment.author),
                        "article_title": .string(located.reply.articleTitle),
                        "is_unread": .bool(located.reply.isUnread),
                        "date_iso": .string(DateText.rfc3339(comment.createdAt)),
                        "date_text": .string(DateText.long(comment.createdAt)),
                        "paragraphs": .list(Paragraphs.split(comment.body).map(MustacheValue.string)),
                    ]
                }),
            "has_replies": .bool(!replies.isEmpty),
            "newer_url": number > 1 ? .string(number == 2 ? "/me/replies" : "/me/replies?page=\(number - 1)") : .null,
            "older_url": hasMore ? .string("/me/replies?page=\(number + 1)") : .null,
        ]
        return try views.page("replies", title: "Replies to you", model: model, context: shown)
    }
}
