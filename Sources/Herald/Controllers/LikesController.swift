import HTTP
import Mustache

/// Liking and unliking articles (both resumable: an anonymous reader's click survives
/// login), and the reader's own list of liked articles.
struct LikesController: Sendable {
    let likes: Likes
    let pages: ArticlePages
    let views: Views

    /// The like and the unlike, as the pending-action mechanism performs them after login.
    var resumableActions: [ResumableAction] { [action(liked: true), action(liked: false)] }

    func addRoutes(to router: inout Router<RequestContext>, intents: PendingActions) {
        router.post("/articles/:slug/like", intents.route(action(liked: true)))
        router.post("/articles/:slug/unlike", intents.route(action(liked: false)))
        router.get("/me/likes") { request, context in try likedArticles(request, context) }
    }

    private func action(liked: Bool) -> ResumableAction {
        ResumableAction(
            liked ? .like : .unlike,
            describe: { request in
                guard let article = try pages.publishedArticle(ArticleRoutes.slug(request)) else {
                    throw ArticleRoutes.noSuchArticle
                }
                return "\(liked ? "like" : "unlike") “\(article.title)”"
            },
            returnPath: { ArticlePaths.article(ArticleRoutes.slug($0)) }
        ) { request, context in try change(request, &context, liked: liked) }
    }

    /// Logged in: like or unlike (idempotent), then back to the article with a message; or, for
    /// the page's script (`Accept: application/json`), `{"liked":…,"count":…}`.
    func change(_ request: Request, _ context: inout RequestContext, liked: Bool) throws -> Response {
        guard let user = context.user else { throw HTTPError(.forbidden, "Please log in first.") }
        switch try likes.change(ArticleRoutes.slug(request), liked: liked, by: user.id) {
        case .liked(let article):
            if request.prefersJSON { return .json(LikeState(liked: true, count: article.count)) }
            context.nextFlash = "You liked “\(article.title)”."
            return .redirect(to: ArticlePaths.article(article.slug))
        case .unliked(let article):
            if request.prefersJSON { return .json(LikeState(liked: false, count: article.count)) }
            context.nextFlash = "You no longer like “\(article.title)”."
            return .redirect(to: ArticlePaths.article(article.slug))
        case .noSuchArticle:
            throw ArticleRoutes.noSuchArticle
        }
    }

    /// SPEC's answer to a like or unlike asked for as JSON.
    struct LikeState: Encodable {
        let liked: Bool
        let count: Int
    }

    func likedArticles(_ request: Request, _ context: RequestContext) throws -> Response {
        guard let user = context.user else { return .redirect(to: "/login?next=/me/likes") }
        let liked = try likes.liked(by: user.id)
        let model: [String: MustacheValue] = [
            "articles": .list(liked.map { .object(ArticleSummaryView(article: $0)) }),
            "has_articles": .bool(!liked.isEmpty),
        ]
        return try views.page("likes", title: "Your likes", model: model, context: context)
    }
}
