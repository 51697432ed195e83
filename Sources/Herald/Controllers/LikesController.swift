import HTTP
import Mustache

/// Liking and unliking articles (both resumable: an anonymous reader's click survives
/// login), and the reader's own list of liked articles.
struct LikesController: Sendable {
    let articles: ArticleStore
    let likes: LikeStore
    let intents: PendingActions
    let views: Views
    let clock: Clock

    func addRoutes(to router: inout Router<RequestContext>) {
        router.post(
            "/articles/:slug/like",
            intents.resumable("like", describe: describe("like"), returnPath: returnPath) { request, context in
                try change(request, &context, like: true)
            })
        router.post(
            "/articles/:slug/unlike",
            intents.resumable("unlike", describe: describe("unlike"), returnPath: returnPath) { request, context in
                try change(request, &context, like: false)
            })
        router.get("/me/likes") { request, context in try likedArticles(request, context) }
    }

    /// Logged in: like or unlike (idempotent), then back to the article with a message.
    func change(_ request: Request, _ context: inout RequestContext, like: Bool) throws -> Response {
        guard let user = context.user else { throw HTTPError(.forbidden, "Please log in first.") }
        let article = try articles.article(for: request)
        if like {
            try likes.like(userID: user.id, articleID: article.id, at: clock.now())
            context.nextFlash = "You liked “\(article.title)”."
        } else {
            try likes.unlike(userID: user.id, articleID: article.id)
            context.nextFlash = "You no longer like “\(article.title)”."
        }
        return .redirect(to: ArticlePaths.article(article.slug))
    }

    func likedArticles(_ request: Request, _ context: RequestContext) throws -> Response {
        guard let user = context.user else { return .redirect(to: "/login?next=/me/likes") }
        let liked = try likes.likedArticles(userID: user.id)
        let model: [String: MustacheValue] = [
            "articles": .list(liked.map { .object(ArticleSummaryView(article: $0)) }),
            "has_articles": .bool(!liked.isEmpty),
        ]
        return try views.page("likes", title: "Your likes", model: model, context: context)
    }

    private func describe(_ verb: String) -> @Sendable (Request) throws -> String {
        { request in "\(verb) “\(try articles.article(for: request).title)”" }
    }

    private func returnPath(_ request: Request) -> String {
        ArticlePaths.article(request.parameters["slug"] ?? "")
    }
}
