import Mustache

/// `article.mustache`: the article with its like form, a page of its comments, and the comment
/// form (with a draft and its error when the page is shown again, 422).
struct ArticlePageModel: PageModel {
    let template = PageTemplate.article
    let article: ArticlePageView
    let comments: [CommentView]
    /// Earlier and later pages of comments (`?comments=N#comments`).
    let pager: Pager
    let draft: String
    let draftParent: Int?
    let commentError: String?
    let commentAction: String

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "article": .object(article)
        case "comments": .list(comments.map { .object($0) })
        case "has_comments": .bool(!comments.isEmpty)
        // SPEC "Pages, in small ways": "Comments (2)" — every comment on the article, replies
        // included, as the cards count them (the page's script keeps it when one is added).
        case "comment_total": .int(article.article.commentCount)
        case "comment_draft": .string(draft)
        case "comment_parent": draftParent.map(MustacheValue.int) ?? .null
        case "comment_error": commentError.map { .string(Messages.rendering.translated($0)) } ?? .null
        case "comment_action": .string(commentAction)
        default: pager.value(forKey: key, prefix: "comments_")
        }
    }
}
