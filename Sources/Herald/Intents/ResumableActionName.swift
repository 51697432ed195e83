/// Every POST that survives login, by the name its intents carry (the cookie's `a` field, so
/// these strings are part of the cookie format: renaming one voids intents in flight).
enum ResumableActionName: String, Sendable, CaseIterable {
    case like, unlike, comment
    case editComment = "comment-edit"
    case createArticle = "article-create"
    case saveArticle = "article-save"
    case insertImage = "article-insert-image"
    case reportComment = "comment-report"
    case hideComment = "comment-hide"
    case restoreComment = "comment-restore"
    case dismissReports = "comment-dismiss"
    case banUser = "user-ban"
    case unbanUser = "user-unban"
    case deleteComment = "comment-delete"
    case changeEmail = "account-email"
    case endOtherSessions = "account-end-others"
    case replyMail = "account-reply-mail"
    /// Forms that carry a password: captured without it, and after login the reader is sent
    /// back to the form to type it again (SPEC: a password is never captured).
    case changePassword = "account-password"
    case deleteAccount = "account-delete"
}

extension ResumableActionName {
    /// The key of its messages in the catalogs: `cancel_<key>` is the login page's button that drops
    /// the pending action, naming what it cancels ("Cancel the like"): the description itself
    /// ("like “Title”") does not read as a button.
    var messageKey: String { rawValue.replacing("-", with: "_") }
}
