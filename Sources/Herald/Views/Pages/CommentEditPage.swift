import Mustache

/// `comment-edit.mustache`: the author's own comment in a form, while it may still be edited.
struct CommentEditPage: PageModel {
    let template = PageTemplate.commentEdit
    let commentID: Int
    let draft: String
    let error: String?
    /// The comment's article.
    let backURL: String

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "action": .string(CommentPaths.edit(commentID))
        case "draft": .string(draft)
        case "error": error.map { .string(Messages.rendering.translated($0)) } ?? .null
        case "back_url": .string(backURL)
        default: nil
        }
    }
}

/// Where a comment's forms post: shared by the route table's actions and the views.
enum CommentPaths {
    static func edit(_ id: Int) -> String { "/comments/\(id)/edit" }
    static func delete(_ id: Int) -> String { "/comments/\(id)/delete" }
    static func report(_ id: Int) -> String { "/comments/\(id)/report" }
    static func hide(_ id: Int) -> String { "/comments/\(id)/hide" }
    static func restore(_ id: Int) -> String { "/comments/\(id)/restore" }
    static func dismiss(_ id: Int) -> String { "/comments/\(id)/dismiss" }
    /// A comment's lasting address: sent on to its article's page, at the comment.
    static func permalink(_ id: Int) -> String { "/comments/\(id)" }
}
