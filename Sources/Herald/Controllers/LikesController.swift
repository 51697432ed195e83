import HTTP
import Mustache

/// Liking and unliking articles (both resumable: an anonymous reader's click survives
/// login), and the reader's own list of liked articles.
struct LikesController: Sendable {
    let likes: Likes
    let pages: ArticlePages
    let views: Views

    /// The like and the unlike: resumable (an anonymous reader's click survives login).
    var resumableActions: [AnyResumableAction] { [.init(action(liked: true)), .init(action(liked: false))] }

    func addRoutes(to router: inout Router<RequestContext>) {
        router.group("/me", requires: RouteGuards.readers) { me in
            me.get("/likes") { request, context in try likedArticles(request, context) }
        }
    }

    /// The article a like names.
    struct LikeInput: ResumableInput {
        static let keptFields: [String] = []
        let slug: String

        init(_ form: KeptForm) { slug = form.parameter("slug") }
    }

    private func action(liked: Bool) -> ResumableAction<LikeInput> {
        ResumableAction(
            name: liked ? .like : .unlike, path: liked ? "/articles/:slug/like" : "/articles/:slug/unlike",
            describe: { input, messages in
                guard let article = try pages.publishedArticle(input.slug) else { throw ArticleRoutes.noSuchArticle }
                return messages.format(liked ? "action_like" : "action_unlike", ["title": article.title])
            },
            returnPath: { ArticlePaths.article($0.slug) },
            perform: { input, user, context, reply in try change(input, liked: liked, by: user, &context, reply) })
    }

    /// Like or unlike (idempotent), then back to the article at its like button (`#like`) with a
    /// message; or, for the page's script, `{"liked":…,"count":…}`.
    func change(_ input: LikeInput, liked: Bool, by user: User, _ context: inout RequestContext, _ reply: Reply)
        throws -> Response
    {
        switch try likes.change(input.slug, liked: liked, by: user.id) {
        case .liked(let article):
            if reply == .json { return .json(LikeState(liked: true, count: article.count)) }
            context.nextFlash = context.text("flash_liked", ["title": article.title])
            return .redirect(to: ArticlePaths.likeControl(article.slug))
        case .unliked(let article):
            if reply == .json { return .json(LikeState(liked: false, count: article.count)) }
            context.nextFlash = context.text("flash_unliked", ["title": article.title])
            return .redirect(to: ArticlePaths.likeControl(article.slug))
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
        let user = try context.signedIn()
        let liked = try likes.liked(by: user.id)
        return try views.page(LikesPage(articles: liked), title: "Your likes", context: context)
    }
}
