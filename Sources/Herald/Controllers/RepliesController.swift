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
        let page = RepliesPage(replies: replies, page: number, hasMore: hasMore)
        return try views.page(page, title: "Replies to you", context: shown)
    }
}
