import HTTP
import Mustache

/// Reports from readers, and the moderators' work: `/moderation` (the queue and the record),
/// hiding and restoring comments, dismissing reports, banning and unbanning accounts. Every POST
/// is resumable; all but the report need the `moderator` role.
struct ModerationController: Sendable {
    let moderation: Moderation
    let views: Views

    var resumableActions: [ResumableAction] {
        [
            ResumableAction(
                .reportComment, keeping: ["reason"],
                describe: { request in
                    guard try moderation.visibleArticleSlug(ofComment: Self.commentID(request)) != nil else {
                        throw Self.noSuchComment
                    }
                    return "report a comment"
                },
                returnPath: commentPath
            ) { request, context in try report(request, &context) },
            commentAction(.hideComment, "hide a comment") { request, context in
                try setHidden(true, request, &context)
            },
            commentAction(.restoreComment, "restore a comment") { request, context in
                try setHidden(false, request, &context)
            },
            commentAction(.dismissReports, "dismiss the reports on a comment") { request, context in
                try dismiss(request, &context)
            },
            userAction(.banUser, "ban") { request, context in try setBanned(true, request, &context) },
            userAction(.unbanUser, "unban") { request, context in try setBanned(false, request, &context) },
        ]
    }

    func addRoutes(to router: inout Router<RequestContext>, intents: PendingActions) {
        router.get("/moderation") { request, context in try queue(request, context) }
        let actions = Dictionary(resumableActions.map { ($0.name, $0) }) { first, _ in first }
        for (path, name) in [
            ("/comments/:id/report", ResumableActionName.reportComment), ("/comments/:id/hide", .hideComment),
            ("/comments/:id/restore", .restoreComment), ("/comments/:id/dismiss", .dismissReports),
            ("/users/:name/ban", .banUser), ("/users/:name/unban", .unbanUser),
        ] {
            if let action = actions[name] { router.post(path, intents.route(action)) }
        }
    }

    static let noSuchComment = HTTPError(.notFound, "There is no such comment. It may have been deleted.")
    static let noSuchUser = HTTPError(.notFound, "There is no reader called that here.")

    private static func commentID(_ request: Request) -> Int {
        request.parameters["id"].flatMap { Int($0) } ?? 0
    }

    private static func username(_ request: Request) -> String {
        request.parameters["name"] ?? ""
    }

    /// The comment's place under its article (or the front page when it cannot be seen).
    private func commentPath(_ request: Request) -> String {
        let id = Self.commentID(request)
        return ((try? moderation.visibleArticleSlug(ofComment: id)) ?? nil).map {
            ArticlePaths.article($0) + "#comment-\(id)"
        } ?? "/"
    }

    /// Where a moderator's form brings them back: its `back` field when it is a local path (the
    /// queue's forms send `/moderation`), else `fallback`.
    private static func back(_ request: Request, fallback: String) throws -> String {
        NextPath.validated(try request.form()["back"]) ?? fallback
    }

    private func commentAction(
        _ name: ResumableActionName, _ what: String, handler: @escaping Handler<RequestContext>
    ) -> ResumableAction {
        ResumableAction(
            name, keeping: ["note", "back"], describe: { _ in what },
            returnPath: { request in (try? Self.back(request, fallback: "/moderation")) ?? "/moderation" },
            handler: handler)
    }

    private func userAction(
        _ name: ResumableActionName, _ verb: String, handler: @escaping Handler<RequestContext>
    ) -> ResumableAction {
        ResumableAction(
            name, keeping: ["note", "back", "hide_comments"],
            describe: { request in "\(verb) “\(Self.username(request).prefix(64))”" },
            returnPath: { request in (try? Self.back(request, fallback: "/moderation")) ?? "/moderation" },
            handler: handler)
    }

    /// Only moderators moderate (admins are moderators too).
    private static func moderator(_ context: RequestContext) throws -> User {
        guard let user = context.user else { throw HTTPError(.forbidden, "Please log in first.") }
        guard user.roles.grants(.moderator) else {
            throw HTTPError(.forbidden, "Only the site's moderators can do this. Your account is not one.")
        }
        return user
    }

    // MARK: Readers report

    func report(_ request: Request, _ context: inout RequestContext) throws -> Response {
        guard let reader = context.user else { throw HTTPError(.forbidden, "Please log in first.") }
        let id = Self.commentID(request)
        let anchor = "#comment-\(id)"
        switch try moderation.report(commentID: id, reason: try request.form()["reason"] ?? "", by: reader) {
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

    func setHidden(_ hidden: Bool, _ request: Request, _ context: inout RequestContext) throws -> Response {
        let moderator = try Self.moderator(context)
        let id = Self.commentID(request)
        let note = try request.form()["note"] ?? ""
        switch try moderation.setHidden(commentID: id, hidden: hidden, note: note, by: .moderator(moderator)) {
        case .changed(let slug):
            context.nextFlash = hidden ? "The comment is hidden from readers." : "The comment is restored."
            return .redirect(to: try Self.back(request, fallback: ArticlePaths.article(slug) + "#comment-\(id)"))
        case .unchanged(let slug):
            context.nextFlash = hidden ? "The comment was already hidden." : "The comment was not hidden."
            return .redirect(to: try Self.back(request, fallback: ArticlePaths.article(slug) + "#comment-\(id)"))
        case .noSuchComment:
            throw Self.noSuchComment
        case .noteTooLong:
            throw Self.noteTooLong
        }
    }

    func dismiss(_ request: Request, _ context: inout RequestContext) throws -> Response {
        let moderator = try Self.moderator(context)
        let dismissed = try moderation.dismissReports(
            commentID: Self.commentID(request), note: try request.form()["note"] ?? "", by: .moderator(moderator))
        context.nextFlash = dismissed ? "The reports are dismissed." : "That comment had no open reports."
        return .redirect(to: "/moderation")
    }

    func setBanned(_ banned: Bool, _ request: Request, _ context: inout RequestContext) throws -> Response {
        let moderator = try Self.moderator(context)
        let name = Self.username(request)
        let form = try request.form()
        let back = try Self.back(request, fallback: "/moderation")
        switch try moderation.setBanned(
            name, banned: banned, hideComments: form["hide_comments"] == "1", note: form["note"] ?? "",
            by: .moderator(moderator))
        {
        case .banned(let hidden):
            context.nextFlash =
                "“\(name)” is banned: logged out everywhere and unable to log in."
                + (hidden > 0 ? " \(hidden) comment\(hidden == 1 ? " is" : "s are") hidden." : "")
        case .unbanned:
            context.nextFlash = "“\(name)” may log in again."
        case .unchanged:
            context.nextFlash = banned ? "“\(name)” was already banned." : "“\(name)” was not banned."
        case .noSuchUser:
            throw Self.noSuchUser
        case .cannotBanAdmin:
            throw HTTPError(.forbidden, "Moderators cannot ban an admin.")
        case .cannotBanSelf:
            throw HTTPError(.unprocessableContent, "You cannot ban yourself.")
        case .noteTooLong:
            throw Self.noteTooLong
        }
        return .redirect(to: back)
    }

    static let noteTooLong = HTTPError(
        .unprocessableContent, "A note is at most \(Moderation.maximumNoteCharacters) characters.")

    // MARK: The queue

    func queue(_ request: Request, _ context: RequestContext) throws -> Response {
        switch try PageAccess.check(request, context, role: .moderator) {
        case .allowed: break
        case .loginFirst(let redirect): return redirect
        }
        let number = try ArticlesController.pageNumber(request.query["page"])
        let (reported, hasMore) = try moderation.queue(page: number)
        if reported.isEmpty && number > 1 {
            throw HTTPError(.notFound, "There is no page \(number) of reports.")
        }
        let model: [String: MustacheValue] = [
            "reports": .list(reported.map { .object(ReportedCommentView(reported: $0)) }),
            "has_reports": .bool(!reported.isEmpty),
            "newer_url": number > 1 ? .string(number == 2 ? "/moderation" : "/moderation?page=\(number - 1)") : .null,
            "older_url": hasMore ? .string("/moderation?page=\(number + 1)") : .null,
            "actions": .list(try moderation.recentActions().map { .object(ModerationActionView(action: $0)) }),
        ]
        return try views.page("moderation", title: "Moderation", model: model, context: context)
    }
}

/// A line of the moderation page's record: each value made when the template reads it (a hundred
/// lines a page; no dictionary built for each).
struct ModerationActionView: MustacheObject {
    let action: ModerationAction

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "actor": .string(action.actor)
        case "action": .string(action.action)
        case "target": .string(action.target)
        case "note": .string(action.note)
        case "at_iso": .string(DateText.rfc3339(action.at))
        case "at_text": .string(DateText.dayAndTime(action.at))
        default: nil
        }
    }
}

/// A reported comment on the moderation page, with its forms.
struct ReportedCommentView: MustacheObject {
    let reported: ReportedComment

    func value(forKey key: String) -> MustacheValue? {
        let comment = reported.comment
        switch key {
        case "id": return .int(comment.id)
        case "author": return .string(comment.author)
        case "author_url": return .string("/users/" + PercentEncoding.encode(comment.author))
        case "paragraphs": return .list(Paragraphs.split(comment.body).map(MustacheValue.string))
        case "is_hidden": return .bool(comment.isHidden)
        case "url": return .string(ArticlePaths.article(reported.articleSlug) + "#comment-\(comment.id)")
        case "article_title": return .string(reported.articleTitle)
        case "total": return .int(reported.total)
        case "report_label": return .string(reported.total == 1 ? "report" : "reports")
        case "reasons":
            return .list(
                reported.reasons.map { reason in
                    ["reason": .string(reason.reason), "count": .int(reason.count)]
                })
        case "hide_action": return .string("/comments/\(comment.id)/hide")
        case "dismiss_action": return .string("/comments/\(comment.id)/dismiss")
        case "ban_action": return .string("/users/\(PercentEncoding.encode(comment.author))/ban")
        case "date_text": return .string(DateText.long(comment.createdAt))
        default: return nil
        }
    }
}
