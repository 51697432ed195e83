import HTTP
import Mustache
import TextSupport

/// Reports from readers, and the moderators' work: `/moderation` (the queue and the record),
/// hiding and restoring comments, dismissing reports, banning and unbanning accounts. Every POST
/// is resumable; all but the report need the `moderator` role.
struct ModerationController: Sendable {
    let moderation: Moderation
    let views: Views

    /// Every POST: resumable. All but the report need the `moderator` role.
    var resumableActions: [AnyResumableAction] {
        [
            .init(
                ResumableAction<ReportInput>(
                    name: .reportComment, path: "/comments/:id/report",
                    describe: { input, messages in
                        guard try moderation.visibleArticleSlug(ofComment: input.id) != nil else {
                            throw Self.noSuchComment
                        }
                        return Moderation.Reason(rawValue: input.reason).map {
                            messages.format("action_report_as", ["reason": messages[$0.messageKey].lowercased()])
                        } ?? messages["action_report"]
                    },
                    returnPath: { commentPath($0.id) },
                    perform: { input, user, context, _ in try report(input, by: user, &context) })),
            .init(
                commentAction(.hideComment, "/comments/:id/hide", "action_hide_comment") { input, user, context in
                    try setHidden(true, input, by: user, &context)
                }),
            .init(
                commentAction(.restoreComment, "/comments/:id/restore", "action_restore_comment") {
                    input, user, context in
                    try setHidden(false, input, by: user, &context)
                }),
            .init(
                commentAction(.dismissReports, "/comments/:id/dismiss", "action_dismiss_reports") {
                    input, user, context in try dismiss(input, by: user, &context)
                }),
            .init(userAction(.banUser, "/users/:name/ban", banned: true)),
            .init(userAction(.unbanUser, "/users/:name/unban", banned: false)),
        ]
    }

    func addRoutes(to router: inout Router<RequestContext>) {
        router.group("/moderation", requires: RouteGuards.moderators) { moderation in
            moderation.get("") { request, context in try queue(request, context) }
        }
    }

    static let moderatorsOnly = RoleRequirement(role: .moderator, refusal: Moderation.moderatorsOnly)

    struct ReportInput: ResumableInput {
        static let keptFields = ["reason"]
        let id: Int
        let reason: String

        init(_ form: KeptForm) throws(HTTPError) {
            id = try form.require("id", as: Int.self, notFound: noSuchComment)
            reason = form.text("reason")
        }
    }

    /// A moderator's form about a comment: its note, and the local page to come back to.
    struct CommentModeration: ResumableInput {
        static let keptFields = ["note", "back"]
        let id: Int
        let note: String
        /// Where the form brings the moderator back (the queue's forms send `/moderation`); nil
        /// when absent or not a local path.
        let back: String?

        init(_ form: KeptForm) throws(HTTPError) {
            id = try form.require("id", as: Int.self, notFound: noSuchComment)
            note = form.text("note")
            back = NextPath.validated(form["back"])
        }
    }

    /// A ban or an unban: the account, the note (a ban's reason), how long a ban lasts, whether
    /// its comments are hidden too.
    struct AccountModeration: ResumableInput {
        static let keptFields = ["note", "duration", "back", "hide_comments"]
        let username: String
        let note: String
        /// The form's `duration` as sent, to put back when it is not one the form offers.
        let duration: String
        /// Nil when `duration` is missing or not one of `BanLength`'s values.
        let length: BanLength?
        let back: String?
        let hideComments: Bool

        init(_ form: KeptForm) {
            username = form.parameter("name")
            note = form.text("note")
            duration = form.text("duration")
            length = BanLength(rawValue: duration)
            back = NextPath.validated(form["back"])
            hideComments = form["hide_comments"] == "1"
        }
    }

    static let noSuchComment = HTTPError(.notFound, "There is no such comment. It may have been deleted.")
    static let noSuchUser = HTTPError(.notFound, "There is no reader called that here.")

    /// The comment's place under its article (or the front page when it cannot be seen).
    private func commentPath(_ id: Int) -> String {
        ((try? moderation.visibleArticleSlug(ofComment: id)) ?? nil).map {
            ArticlePaths.article($0) + "#comment-\(id)"
        } ?? "/"
    }

    /// `what`, then " with the note “…”" (「，備註：「…」」), naming what the action records.
    private static func withNote(_ what: String, _ note: String, _ messages: Messages) -> String {
        let line = note.singleLine
        guard !line.isEmpty else { return what }
        let shown = line.count > 80 ? String(line.prefix(79)) + "…" : line
        return what + (messages.language == .english ? " " : "") + messages.format("action_with_note", ["note": shown])
    }

    private func commentAction(
        _ name: ResumableActionName, _ path: String, _ whatKey: String,
        perform: @escaping @Sendable (CommentModeration, User, inout RequestContext) throws -> Response
    ) -> ResumableAction<CommentModeration> {
        ResumableAction(
            name: name, path: path, role: Self.moderatorsOnly,
            describe: { input, messages in Self.withNote(messages[whatKey], input.note, messages) },
            returnPath: { $0.back ?? "/moderation" },
            perform: { input, user, context, _ in try perform(input, user, &context) })
    }

    private func userAction(_ name: ResumableActionName, _ path: String, banned: Bool)
        -> ResumableAction<AccountModeration>
    {
        var action = ResumableAction<AccountModeration>(
            name: name, path: path, role: Self.moderatorsOnly,
            describe: { input, messages in
                // Every value the ban sets: its length, its reason, the comments it hides.
                let length = input.length.map { messages["ban_for_" + $0.rawValue] } ?? ""
                let who = ["name": String(input.username.prefix(64)), "length": length]
                let what =
                    banned
                    ? messages.format(input.hideComments ? "action_ban_and_hide" : "action_ban", who)
                    : messages.format("action_unban", who)
                return Self.withNote(what, input.note, messages)
            },
            returnPath: { $0.back ?? "/moderation" },
            perform: { input, user, context, _ in try setBanned(banned, input, by: user, &context) })
        guard banned else { return action }
        // A ban the form could never perform (no reason, no length it offers) is refused before it
        // is kept, with the form back and what was typed in it.
        action.check = { input, form, context in
            guard let problem = Self.banProblem(input) else { return .keep(form) }
            return .refuse(try banPage(input, problem, context))
        }
        action.typedText = [("note", "Reason")]
        action.formAgain = { input, why, context in
            try banPage(input, why == .waitedTooLong ? Self.notBannedYet : Self.banProblem(input) ?? "", context)
        }
        return action
    }

    static let notBannedYet =
        "Nothing was done yet: the ban waited too long while you logged in. Check it and ban again."
    static let reasonRequired = "Say why, for the record: a ban needs a reason."
    static let chooseLength = "Choose how long the ban lasts: 1 day, 7 days or permanently."

    /// What keeps a ban's form from being performed, in words; nil when nothing does.
    private static func banProblem(_ input: AccountModeration) -> String? {
        if input.note.singleLine.isEmpty { return reasonRequired }
        if input.note.singleLine.count > Moderation.maximumNoteCharacters { return noteTooLong.message }
        if input.length == nil { return chooseLength }
        return nil
    }

    /// The ban form again with what was typed in it (422): nothing the moderator wrote is lost.
    private func banPage(_ input: AccountModeration, _ message: String, _ context: RequestContext) throws -> Response {
        let page = BanPage(
            username: String(input.username.prefix(64)), message: message, reason: input.note,
            duration: input.duration, hideComments: input.hideComments, back: input.back ?? "/moderation")
        return try views.page(
            page, title: "Ban \(input.username.prefix(64))", context: context, status: .unprocessableContent)
    }

    // MARK: Readers report

    func report(_ input: ReportInput, by reader: User, _ context: inout RequestContext) throws -> Response {
        let anchor = "#comment-\(input.id)"
        switch try moderation.report(commentID: input.id, reason: input.reason, by: reader) {
        case .reported(let slug):
            context.nextFlash = "Thank you: the comment is reported, and a moderator will look at it."
            return .redirect(to: ArticlePaths.article(slug) + anchor)
        case .alreadyReported(let slug):
            context.nextFlash = "You had already reported this comment; it is counted once."
            return .redirect(to: ArticlePaths.article(slug) + anchor)
        case .ownComment:
            throw HTTPError(.unprocessableContent, "You cannot report your own comment. You can delete it instead.")
        case .unknownReason:
            throw HTTPError(
                .unprocessableContent,
                "Choose why you report it: "
                    + Moderation.Reason.allCases.map { "\($0.rawValue) (\($0.label.lowercased()))" }.joined(
                        separator: ", ")
                    + ".")
        case .noSuchComment:
            throw Self.noSuchComment
        }
    }

    // MARK: Moderators act

    func setHidden(_ hidden: Bool, _ input: CommentModeration, by moderator: User, _ context: inout RequestContext)
        throws -> Response
    {
        let id = input.id
        switch try moderation.setHidden(commentID: id, hidden: hidden, note: input.note, by: .moderator(moderator)) {
        case .changed(let slug):
            context.nextFlash = hidden ? "The comment is hidden from readers." : "The comment is restored."
            return .redirect(to: input.back ?? ArticlePaths.article(slug) + "#comment-\(id)")
        case .unchanged(let slug):
            context.nextFlash = hidden ? "The comment was already hidden." : "The comment was not hidden."
            return .redirect(to: input.back ?? ArticlePaths.article(slug) + "#comment-\(id)")
        case .noSuchComment:
            throw Self.noSuchComment
        case .noteTooLong:
            throw Self.noteTooLong
        case .notAllowed(let reason):
            throw HTTPError(.forbidden, reason)
        }
    }

    func dismiss(_ input: CommentModeration, by moderator: User, _ context: inout RequestContext) throws -> Response {
        switch try moderation.dismissReports(commentID: input.id, note: input.note, by: .moderator(moderator)) {
        case .dismissed: context.nextFlash = "The reports are dismissed."
        case .noneOpen: context.nextFlash = "That comment had no open reports."
        case .noteTooLong: throw Self.noteTooLong
        case .notAllowed(let reason): throw HTTPError(.forbidden, reason)
        }
        return .redirect(to: "/moderation")
    }

    func setBanned(_ banned: Bool, _ input: AccountModeration, by moderator: User, _ context: inout RequestContext)
        throws -> Response
    {
        let name = input.username
        if banned, let problem = Self.banProblem(input) { return try banPage(input, problem, context) }
        switch try moderation.setBanned(
            name, banned: banned, for: input.length ?? .permanent, hideComments: input.hideComments, note: input.note,
            by: .moderator(moderator))
        {
        case .banned(let hidden, let until):
            context.nextFlash =
                context.text("flash_banned", ["name": name, "length": BanText.length(until: until, context.messages)])
                + (hidden > 0
                    ? (context.language == .english ? " " : "")
                        + context.text(
                            hidden == 1 ? "flash_banned_hidden_one" : "flash_banned_hidden", ["count": String(hidden)])
                    : "")
        case .reasonRequired:
            return try banPage(input, Self.reasonRequired, context)
        case .unbanned:
            context.nextFlash = context.text("flash_unbanned", ["name": name])
        case .unchanged:
            context.nextFlash = context.text(banned ? "flash_already_banned" : "flash_not_banned", ["name": name])
        case .noSuchUser:
            throw Self.noSuchUser
        case .cannotBanAdmin:
            throw HTTPError(.forbidden, "Moderators cannot ban an admin.")
        case .cannotBanSelf:
            throw HTTPError(.unprocessableContent, "You cannot ban yourself.")
        case .noteTooLong:
            if banned { return try banPage(input, Self.noteTooLong.message, context) }
            throw Self.noteTooLong
        case .notAllowed(let reason):
            throw HTTPError(.forbidden, reason)
        }
        return .redirect(to: input.back ?? "/moderation")
    }

    static let noteTooLong = HTTPError(
        .unprocessableContent, "A note is at most \(Moderation.maximumNoteCharacters) characters.")

    // MARK: The queue

    func queue(_ request: Request, _ context: RequestContext) throws -> Response {
        let number = try ArticlesController.pageNumber(request.query["page"])
        let (reported, hasMore, actions): ([ReportedComment], Bool, [ModerationAction])
        switch try moderation.queue(page: number, by: .moderator(context.signedIn())) {
        case .allowed(let queue): (reported, hasMore, actions) = queue
        case .notAllowed(let reason): throw HTTPError(.forbidden, reason)
        }
        if reported.isEmpty && number > 1 {
            throw HTTPError(.notFound, "There is no page \(number) of reports.")
        }
        let page = ModerationPage(
            reported: reported, actions: actions, page: number, hasMore: hasMore, now: moderation.now)
        return try views.page(page, title: "Moderation", context: context)
    }
}
