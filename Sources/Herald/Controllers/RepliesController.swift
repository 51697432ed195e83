import HTTP
import Mustache

/// `/me/replies`: replies to the reader's comments, newest first; opening it marks them read.
struct RepliesController: Sendable {
    let comments: Comments
    let views: Views

    func addRoutes(to router: inout Router<RequestContext>) {
        router.group("/me", requires: RouteGuards.readers) { me in
            me.get("/replies") { request, context in try replies(request, context) }
        }
    }

    func replies(_ request: Request, _ context: RequestContext) throws -> Response {
        let reader = try context.signedIn()
        let number = try ArticlesController.pageNumber(request.query["page"])
        guard let (replies, hasMore) = try comments.replies(to: reader, page: number) else {
            throw HTTPError(.notFound, "There is no page \(number) of your replies.")
        }
        // The page shows the header as it was before opening it: the count goes from the next page on.
        var shown = context
        shown.user?.unreadReplies = 0
        let model: [String: MustacheValue] = [
            "replies": .list(replies.map { .object(ReplyView(located: $0)) }),
            "has_replies": .bool(!replies.isEmpty),
            "newer_url": number > 1 ? .string(number == 2 ? "/me/replies" : "/me/replies?page=\(number - 1)") : .null,
            "older_url": hasMore ? .string("/me/replies?page=\(number + 1)") : .null,
        ]
        return try views.page("replies", title: "Replies to you", model: model, context: shown)
    }
}

/// A reply on `/me/replies`: each value made when the template reads it (no dictionary per reply).
struct ReplyView: MustacheObject {
    let located: Comments.ReplyToReader

    func value(forKey key: String) -> MustacheValue? {
        let comment = located.reply.comment
        switch key {
        case "url": return .string(located.path)
        case "author": return .string(comment.author)
        case "article_title": return .string(located.reply.articleTitle)
        case "is_unread": return .bool(located.reply.isUnread)
        case "date_iso": return .string(DateText.rfc3339(comment.createdAt))
        case "date_text": return .string(DateText.long(comment.createdAt))
        case "paragraphs": return .list(Paragraphs.split(comment.body).map(MustacheValue.string))
        default: return nil
        }
    }
}
