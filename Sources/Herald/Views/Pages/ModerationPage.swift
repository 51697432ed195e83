import HTTP
import Mustache

/// `moderation.mustache`: open reports, most reported first, and the record of recent actions.
struct ModerationPage: PageModel {
    let template = PageTemplate.moderation
    let reported: [ReportedComment]
    let actions: [ModerationAction]
    let pager: Pager

    init(reported: [ReportedComment], actions: [ModerationAction], page: Int, hasMore: Bool) {
        self.reported = reported
        self.actions = actions
        pager = Pager(base: "/moderation", page: page, hasOlder: hasMore)
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "reports": .list(reported.map { .object(ReportedCommentView(reported: $0)) })
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
        case "hide_action": return .string(CommentPaths.hide(comment.id))
        case "dismiss_action": return .string(CommentPaths.dismiss(comment.id))
        case "ban_action": return .string("/users/\(PercentEncoding.encode(comment.author))/ban")
        case "date_text": return .string(DateText.long(comment.createdAt))
        default: return nil
        }
    }
}
