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
    /// The login page's button that drops the pending action, naming what it cancels ("Cancel
    /// the like"): the description itself ("like “Title”") does not read as a button.
    var cancelLabel: String {
        switch self {
        case .like: "Cancel the like"
        case .unlike: "Cancel the unlike"
        case .comment: "Cancel the comment"
        case .editComment: "Cancel the edit"
        case .createArticle, .saveArticle: "Cancel the save"
        case .insertImage: "Cancel inserting the image"
        case .reportComment: "Cancel the report"
        case .hideComment: "Cancel hiding the comment"
        case .restoreComment: "Cancel restoring the comment"
        case .dismissReports: "Cancel dismissing the reports"
        case .banUser: "Cancel the ban"
        case .unbanUser: "Cancel the unban"
        case .deleteComment: "Cancel deleting the comment"
        case .changeEmail: "Cancel the email change"
        case .endOtherSessions: "Cancel logging out elsewhere"
        case .replyMail: "Cancel the mail setting"
        case .changePassword: "Cancel the password change"
        case .deleteAccount: "Cancel deleting the account"
        }
    }
}
