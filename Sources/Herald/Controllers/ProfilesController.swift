import HTTP
import Mustache

/// `GET /users/{name}`: a reader's public profile.
struct ProfilesController: Sendable {
    let profiles: Profiles
    let views: Views

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/users/:name") { request, context in try profile(request, context) }
    }

    func profile(_ request: Request, _ context: RequestContext) throws -> Response {
        let name = request.parameters["name"] ?? ""
        let number = try ArticlesController.pageNumber(request.query["page"])
        switch try profiles.profile(of: name, page: number) {
        case .profile(let username, let joined, let comments, let hasOlder):
            let base = "/users/" + PercentEncoding.encode(username)
            let model: [String: MustacheValue] = [
                "username": .string(username),
                "joined": .string(DateText.long(joined)),
                "joined_iso": .string(DateText.rfc3339(joined)),
                "comments": .list(comments.map { .object(ProfileCommentView(comment: $0)) }),
                "has_comments": .bool(!comments.isEmpty),
                "newer_url": number > 1 ? .string(number == 2 ? base : base + "?page=\(number - 1)") : .null,
                "older_url": hasOlder ? .string(base + "?page=\(number + 1)") : .null,
            ]
            return try views.page("profile", title: username, model: model, context: context)
        case .noSuchUser:
            throw HTTPError(.notFound, "There is no reader called that here.")
        case .pastTheLast:
            throw HTTPError(.notFound, "There is no page \(number) of this reader's comments.")
        }
    }
}

/// A comment on a profile: each value made when the template reads it (no dictionary per comment).
struct ProfileCommentView: MustacheObject {
    let comment: ProfileStore.ProfileComment

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "url": .string(ArticlePaths.article(comment.articleSlug) + "#comment-\(comment.id)")
        case "article_title": .string(comment.articleTitle)
        case "date_iso": .string(DateText.rfc3339(comment.createdAt))
        case "date_text": .string(DateText.long(comment.createdAt))
        case "paragraphs": .list(Paragraphs.split(comment.body).map(MustacheValue.string))
        default: nil
        }
    }
}
