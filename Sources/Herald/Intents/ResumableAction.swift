import HTTP

/// Every POST that survives login, by the name its intents carry (the cookie's `a` field, so
/// these strings are part of the cookie format: renaming one voids intents in flight).
enum ResumableActionName: String, Sendable, CaseIterable {
    case like, unlike, comment
    case editComment = "comment-edit"
    case createArticle = "article-create"
    case saveArticle = "article-save"
    case reportComment = "comment-report"
    case hideComment = "comment-hide"
    case restoreComment = "comment-restore"
    case dismissReports = "comment-dismiss"
    case banUser = "user-ban"
    case unbanUser = "user-unban"
    case deleteComment = "comment-delete"
    case changeEmail = "account-email"
    case endOtherSessions = "account-end-others"
    /// Forms that carry a password: captured without it, and after login the reader is sent
    /// back to the form to type it again (SPEC: a password is never captured).
    case changePassword = "account-password"
    case deleteAccount = "account-delete"
}

/// A POST route declared resumable: when an anonymous reader sends it, it is captured
/// and performed after they log in, by this same handler.
struct ResumableAction: Sendable {
    /// What a capture does with the kept fields once the action has checked them.
    enum Capture {
        /// Keep these (checked, normalised) fields in the intent.
        case keep([(String, String)])
        /// The input could never be performed: answer this instead (the form again, 422) and
        /// store nothing.
        case refuse(Response)
    }

    let name: ResumableActionName
    /// The form fields the action needs; every other field of the captured POST is dropped, so
    /// what rides in the cookie is bounded by what the action accepts, not by what was sent.
    let keptFields: [String]
    /// The route's own handler: the one logged-in readers reach directly.
    let handler: Handler<RequestContext>
    /// What is done after login; the handler itself unless the action says otherwise (a form
    /// whose password was not kept sends the reader back to it).
    let resume: Handler<RequestContext>
    /// Says what the reader was doing ("like “Title”"), looking the target up: throws 404 when
    /// it does not exist, so nothing is captured for an unknown article.
    let describe: @Sendable (Request) throws -> String
    /// Where the reader lands after it is performed, or after cancelling it.
    let returnPath: @Sendable (Request) -> String
    /// Checks and normalises the kept fields with the handler's own rules before anything is
    /// encoded, so that nothing is compressed that could never be performed.
    let check: @Sendable (_ kept: [(String, String)], Request, RequestContext) throws -> Capture
    /// The answer when the capture can be kept neither in the cookie nor parked (parking is
    /// full): the form again, with the text kept. Nil: a plain 422 page.
    let tooLarge: (@Sendable (Request, RequestContext) throws -> Response)?
    /// A file field the action keeps too (an article's image): the form is then parked
    /// server-side whenever a file was sent, whatever its size.
    let keptFile: String?
    /// The answer when, after login, the account turns out not to be allowed to do it (403):
    /// given the replayed request, so that what the reader typed can be shown back to them.
    /// Nil: the plain 403 page.
    let refused: (@Sendable (HTTPError, Request, RequestContext) -> Response)?
    /// The kept fields that hold what a person typed, with their labels ("Your comment"): shown
    /// back to them when the action will not be performed (a banned account logging in).
    let typedText: [(field: String, label: String)]
    /// For an action that carries text: the form it came from with the text put back and a
    /// message that it was not sent, for when the intent waited too long to be performed.
    /// Given the replayed request. Nil: a stale intent is dropped (a like).
    let putBack: (@Sendable (Request, RequestContext) throws -> Response)?

    init(
        _ name: ResumableActionName, keeping keptFields: [String] = [],
        describe: @escaping @Sendable (Request) throws -> String, returnPath: @escaping @Sendable (Request) -> String,
        check: @escaping @Sendable ([(String, String)], Request, RequestContext) throws -> Capture = { kept, _, _ in
            .keep(kept)
        },
        tooLarge: (@Sendable (Request, RequestContext) throws -> Response)? = nil,
        keepingFile keptFile: String? = nil,
        refused: (@Sendable (HTTPError, Request, RequestContext) -> Response)? = nil,
        typedText: [(field: String, label: String)] = [],
        putBack: (@Sendable (Request, RequestContext) throws -> Response)? = nil,
        resume: Handler<RequestContext>? = nil,
        handler: @escaping Handler<RequestContext>
    ) {
        self.name = name
        self.keptFields = keptFields
        self.handler = handler
        self.resume = resume ?? handler
        self.describe = describe
        self.returnPath = returnPath
        self.check = check
        self.tooLarge = tooLarge
        self.keptFile = keptFile
        self.refused = refused
        self.typedText = typedText
        self.putBack = putBack
    }
}
