import HTTP
import Mustache

/// `moderation.mustache`: open reports, most reported first, and the record of recent actions.
struct ModerationPage: PageModel {
    let template = PageTemplate.moderation
    let reported: [ReportedComment]
    let actions: [ModerationAction]
    let pager: Pager
    /// What "2 hours ago" counts from.
    let now: Int

    init(reported: [ReportedComment], actions: [ModerationAction], page: Int, hasMore: Bool, now: Int = 0) {
        self.reported = reported
        self.actions = actions
        self.now = now
        pager = Pager(base: "/moderation", page: page, hasOlder: hasMore)
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "reports": .list(reported.map { .object(ReportedCommentView(reported: $0, now: now)) })
        case "has_reports": .bool(!reported.isEmpty)
        case "actions": .list(actions.map { .object(ModerationActionView(action: $0)) })
        default: pager.value(forKey: key)
        }
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
        // "comment 5" links to the comment, "user troll" to the profile.
        case "target_url": Self.url(of: action.target).map(MustacheValue.string) ?? .null
        case "note": .string(action.note)
        // A ban's length beside its reason: "until 3 December 2026, 10:00 UTC" or "permanently".
        case "until_text": .string(action.action == "ban" ? BanText.length(until: action.until) : "")
        case "at_iso": .string(DateText.rfc3339(action.at))
        case "at_text": .string(DateText.dayAndTime(action.at))
        default: nil
        }
    }
}

extension ModerationActionView {
    static func url(of target: String) -> String? {
        if target.hasPrefix("comment "), let id = Int(target.dropFirst("comment ".count)), id > 0 {
            return CommentPaths.permalink(id)
        }
        if target.hasPrefix("user ") {
            return "/users/" + PercentEncoding.encode(String(target.dropFirst("user ".count)))
        }
        return nil
    }
}

/// A reported comment on the moderation page, with its forms and its context: who reported it
/// and when, the comment it answered, its author's other recent comments and earlier removals.
struct ReportedCommentView: MustacheObject {
    let reported: ReportedComment
    var now = 0

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
        case "report_label":
            return .string(Messages.rendering[reported.total == 1 ? "mod_report_one" : "mod_report_many"])
        case "reasons":
            return .list(
                reported.reasons.map { reason in
                    ["reason": .string(reason.reason), "count": .int(reason.count)]
                })
        case "hide_action": return .string(CommentPaths.hide(comment.id))
        case "dismiss_action": return .string(CommentPaths.dismiss(comment.id))
        case "ban_action": return .string(ModerationPaths.ban(comment.author))
        case "ban_back": return .string("/moderation")
        case "ban_durations": return BanDurationChoices.values()
        case "date_text": return .string(DateText.long(comment.createdAt))
        case "reporters":
            return .list(
                reported.reporters.map { reporter in
                    [
                        "name": .string(reporter.username),
                        "url": .string("/users/" + PercentEncoding.encode(reporter.username)),
                        "reason": .string(reporter.reason), "iso": .string(DateText.rfc3339(reporter.at)),
                        "when": .string(DateText.relative(reporter.at, now: now)),
                        "exact": .string(DateText.dayAndTime(reporter.at) + " UTC"),
                    ]
                })
        case "more_reporters":
            let more = reported.total - reported.reporters.count
            return more > 0 ? .int(more) : .null
        case "parent":
            return reported.parent.map { parent in
                [
                    "author": .string(parent.author), "excerpt": .string(Self.excerpt(parent.body)),
                    "url": .string(ArticlePaths.article(reported.articleSlug) + "#comment-\(parent.id)"),
                    "is_hidden": .bool(parent.isHidden),
                ]
            } ?? .null
        case "history":
            return .list(
                reported.authorRecent.map { item in
                    [
                        "excerpt": .string(Self.excerpt(item.comment.body)),
                        "url": .string(ArticlePaths.article(item.articleSlug) + "#comment-\(item.comment.id)"),
                        "iso": .string(DateText.rfc3339(item.comment.createdAt)),
                        "when": .string(DateText.relative(item.comment.createdAt, now: now)),
                        "is_hidden": .bool(item.comment.isHidden),
                    ]
                })
        case "has_history": return .bool(!reported.authorRecent.isEmpty || reported.authorRemovals > 0)
        case "removals": return .int(reported.authorRemovals)
        case "removals_text":
            let count = reported.authorRemovals
            return .string(
                count == 0
                    ? Messages.rendering["mod_no_removals"]
                    : Messages.rendering.format("mod_removals", ["count": String(count)]))
        default: return nil
        }
    }

    /// The first words of a comment, on one line.
    static func excerpt(_ body: String) -> String {
        let line = body.split(whereSeparator: \.isNewline).joined(separator: " ")
        return line.count > 140 ? String(line.prefix(139)) + "…" : line
    }
}
