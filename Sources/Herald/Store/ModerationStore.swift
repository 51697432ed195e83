import Foundation

/// A comment with open reports, as the moderation page lists it, with what a moderator needs to
/// judge it: who reported it and when, the comment it answered, and its author's other recent
/// comments and how many of theirs were removed before.
struct ReportedComment: Sendable, Equatable {
    var comment: Comment
    var articleSlug: String
    var articleTitle: String
    /// Open reports by reason, most frequent first.
    var reasons: [(reason: String, count: Int)]
    var total: Int
    /// The newest open reports (at most `ModerationStore.reportersShown`).
    var reporters: [Reporter] = []
    /// The comment it replied to, when there is one still stored.
    var parent: Comment? = nil
    /// The author's newest other comments (at most `ModerationStore.historyShown`), with their articles' slugs.
    var authorRecent: [(comment: Comment, articleSlug: String)] = []
    /// How many of the author's comments are hidden by moderators.
    var authorRemovals = 0

    /// One open report: who, why, when.
    struct Reporter: Sendable, Equatable {
        let username: String
        let reason: String
        let at: Int
    }

    static func == (a: ReportedComment, b: ReportedComment) -> Bool {
        a.comment == b.comment && a.articleSlug == b.articleSlug && a.articleTitle == b.articleTitle
            && a.total == b.total && a.reasons.elementsEqual(b.reasons, by: ==) && a.reporters == b.reporters
            && a.parent == b.parent && a.authorRemovals == b.authorRemovals
            && a.authorRecent.elementsEqual(
                b.authorRecent, by: { $0.comment == $1.comment && $0.articleSlug == $1.articleSlug })
    }
}

/// One recorded moderation action.
struct ModerationAction: Sendable, Equatable {
    var actor: String
    var action: String
    var target: String
    var note: String
    var at: Int
    /// A ban's end (nil: permanent, or not a ban).
    var until: Int? = nil
}

/// Reports, hidden comments, bans and the record of who did what, in SQL. Every change and its
/// record are one transaction, and a comment's visibility and its article's count change together.
final class ModerationStore: Sendable {
    private let database: Database

    init(database: Database) {
        self.database = database
    }

    // MARK: Reports

    enum ReportOutcome: Sendable, Equatable {
        case reported
        /// This reader had already reported this comment: nothing changed.
        case alreadyReported
    }

    func report(commentID: Int, by userID: Int, reason: String, now: Int) throws -> ReportOutcome {
        try database.write { connection in
            try connection.query(
                """
                INSERT INTO comment_reports (comment_id, user_id, reason, created_at) VALUES (?, ?, ?, ?)
                ON CONFLICT (comment_id, user_id) DO NOTHING
                """, [.integer(Int64(commentID)), .integer(Int64(userID)), .text(reason), .integer(Int64(now))])
            guard connection.changes > 0 else { return .alreadyReported }
            try connection.query(
                "UPDATE comments SET open_reports = open_reports + 1 WHERE id = ?", [.integer(Int64(commentID))])
            return .reported
        }
    }

    /// How many reporters the queue names for a comment, and how many of its author's other comments it shows.
    static let reportersShown = 5
    static let historyShown = 3

    /// The queue's columns: a comment, its article, and how many open reports it has.
    private static let queueSelection = Comment.selection.replacingOccurrences(
        of: "FROM comments", with: ", articles.slug, articles.title, comments.open_reports FROM comments")

    /// One page of comments with open reports, most reported first: read in that order from the
    /// index of reported comments (`open_reports`), then the reasons of that page's reports only.
    func openReports(page: Int, size: Int) throws -> (comments: [ReportedComment], hasMore: Bool) {
        try database.withConnection { connection in
            let rows = try connection.query(
                """
                \(Self.queueSelection)
                JOIN articles ON articles.id = comments.article_id
                WHERE comments.open_reports > 0
                ORDER BY comments.open_reports DESC, comments.id LIMIT ? OFFSET ?
                """, [.integer(Int64(size + 1)), .integer(Int64((page - 1) * size))])
            let shown = rows.prefix(size)
            guard let first = shown.first else { return ([], false) }
            // Always `size` ids (the first repeated), so the statement is prepared once.
            let ids = shown.map { SQLValue.integer(Int64($0.int(0))) }
            let padded = ids + Array(repeating: SQLValue.integer(Int64(first.int(0))), count: max(0, size - ids.count))
            var reasons: [Int: [(reason: String, count: Int)]] = [:]
            for row in try connection.query(
                """
                SELECT comment_id, reason, count(*) AS reports FROM comment_reports
                WHERE is_open = 1 AND comment_id IN (\(padded.map { _ in "?" }.joined(separator: ", ")))
                GROUP BY comment_id, reason ORDER BY comment_id, reports DESC, reason
                """, padded)
            {
                reasons[row.int(0), default: []].append((reason: row.string(1), count: row.int(2)))
            }
            var reported = shown.map { row in
                ReportedComment(
                    comment: Comment(row: row), articleSlug: row.string(Comment.columnCount),
                    articleTitle: row.string(Comment.columnCount + 1), reasons: reasons[row.int(0)] ?? [],
                    total: row.int(Comment.columnCount + 2))
            }
            try Self.addContext(to: &reported, padded: padded, connection)
            return (reported, rows.count > size)
        }
    }

    /// Reporters, parents and the authors' histories of a page of the queue: four statements
    /// whatever the page holds (`padded`: its comment ids, as the reasons were read).
    private static func addContext(
        to reported: inout [ReportedComment], padded: [SQLValue], _ connection: any SQLConnection
    ) throws {
        func list(_ count: Int) -> String { Array(repeating: "?", count: count).joined(separator: ", ") }
        var reporters: [Int: [ReportedComment.Reporter]] = [:]
        for row in try connection.query(
            """
            SELECT comment_id, username, reason, created_at FROM (
                SELECT r.comment_id, users.username, r.reason, r.created_at,
                    ROW_NUMBER() OVER (PARTITION BY r.comment_id ORDER BY r.created_at DESC, r.user_id) AS n
                FROM comment_reports r JOIN users ON users.id = r.user_id
                WHERE r.is_open = 1 AND r.comment_id IN (\(list(padded.count)))
            ) AS newest WHERE n <= ? ORDER BY comment_id, created_at DESC, username
            """, padded + [.integer(Int64(reportersShown))])
        {
            reporters[row.int(0), default: []].append(
                .init(username: row.string(1), reason: row.string(2), at: row.int(3)))
        }
        let parentIDs = Set(reported.compactMap(\.comment.parentID)).sorted()
        var parents: [Int: Comment] = [:]
        if !parentIDs.isEmpty {
            for row in try connection.query(
                Comment.selection + " WHERE comments.id IN (\(list(parentIDs.count)))",
                parentIDs.map { .integer(Int64($0)) })
            {
                let parent = Comment(row: row)
                parents[parent.id] = parent
            }
        }
        let authors = Set(reported.map(\.comment.userID)).sorted().map { SQLValue.integer(Int64($0)) }
        var recent: [Int: [(comment: Comment, articleSlug: String)]] = [:]
        // Each author's newest comments, numbered after the comment's own columns and its slug.
        let columns = Comment.selection.replacingOccurrences(
            of: "FROM comments",
            with: ", articles.slug, ROW_NUMBER() OVER (PARTITION BY comments.user_id ORDER BY comments.id DESC) AS n "
                + "FROM comments")
        for row in try connection.query(
            """
            SELECT * FROM (\(columns) JOIN articles ON articles.id = comments.article_id
                WHERE comments.user_id IN (\(list(authors.count)))) AS history
            WHERE n <= ? ORDER BY n
            """, authors + [.integer(Int64(historyShown + 1))])
        {
            let comment = Comment(row: row)
            recent[comment.userID, default: []].append((comment, row.string(Comment.columnCount)))
        }
        var removals: [Int: Int] = [:]
        for row in try connection.query(
            """
            SELECT user_id, count(*) FROM comments WHERE hidden = 1 AND user_id IN (\(list(authors.count)))
            GROUP BY user_id
            """, authors)
        {
            removals[row.int(0)] = row.int(1)
        }
        for index in reported.indices {
            let comment = reported[index].comment
            reported[index].reporters = reporters[comment.id] ?? []
            reported[index].parent = comment.parentID.flatMap { parents[$0] }
            reported[index].authorRecent = Array(
                (recent[comment.userID] ?? []).filter { $0.comment.id != comment.id }.prefix(historyShown))
            reported[index].authorRemovals = removals[comment.userID] ?? 0
        }
    }

    // MARK: Actions

    enum CommentChange: Sendable, Equatable {
        /// Done; the comment's article, for the way back.
        case changed(articleSlug: String)
        /// It already was so: nothing changed, nothing recorded.
        case unchanged(articleSlug: String)
        case noSuchComment
    }

    /// Hides or restores a comment, keeping its article's count equal to its visible rows, and
    /// records it. Hiding also closes its open reports.
    func setHidden(commentID: Int, hidden: Bool, actor: String, note: String, now: Int) throws -> CommentChange {
        try database.write { connection in
            guard
                let row = try connection.query(
                    """
                    SELECT comments.hidden, articles.slug, comments.article_id, comments.reply_to_user FROM comments
                    JOIN articles ON articles.id = comments.article_id WHERE comments.id = ?
                    """, [.integer(Int64(commentID))]
                ).first
            else { return .noSuchComment }
            let slug = row.string(1)
            guard (row.int(0) != 0) != hidden else { return .unchanged(articleSlug: slug) }
            try connection.query(
                "UPDATE comments SET hidden = ? WHERE id = ?", [.integer(hidden ? 1 : 0), .integer(Int64(commentID))])
            try connection.query(
                "UPDATE articles SET comment_count = comment_count + ? WHERE id = ?",
                [.integer(hidden ? -1 : 1), .integer(Int64(row.int(2)))])
            if hidden {
                try connection.query(
                    "UPDATE comment_reports SET is_open = 0 WHERE comment_id = ?", [.integer(Int64(commentID))])
                try connection.query("UPDATE comments SET open_reports = 0 WHERE id = ?", [.integer(Int64(commentID))])
            }
            if let repliedTo = row.optionalInt(3) { try CommentStore.recountUnreadReplies(of: [repliedTo], connection) }
            try Self.record(
                actor: actor, action: hidden ? "hide" : "restore", target: "comment \(commentID)", note: note,
                now: now, connection)
            return .changed(articleSlug: slug)
        }
    }

    /// Closes a comment's open reports; nil when it has none (or does not exist).
    func dismissReports(commentID: Int, actor: String, note: String, now: Int) throws -> Int? {
        try database.write { connection in
            try connection.query(
                "UPDATE comment_reports SET is_open = 0 WHERE comment_id = ? AND is_open = 1",
                [.integer(Int64(commentID))])
            let closed = connection.changes
            guard closed > 0 else { return nil }
            try connection.query("UPDATE comments SET open_reports = 0 WHERE id = ?", [.integer(Int64(commentID))])
            try Self.record(
                actor: actor, action: "dismiss", target: "comment \(commentID)",
                note: note.isEmpty ? "\(closed) report\(closed == 1 ? "" : "s")" : note, now: now, connection)
            return closed
        }
    }

    enum BanChange: Sendable, Equatable {
        /// Done; how many of its comments were hidden with it.
        case changed(hiddenComments: Int)
        case unchanged
    }

    /// Bans (until `until`; nil: permanent) or unbans `userID`. A ban ends every session of the
    /// account and, with `hideComments`, hides all its comments, fixing every count, in the same
    /// transaction. Whether a ban holds is `User.activeBan(at:)`'s to say, here as everywhere: a
    /// new ban replaces one that ran out or had another end; an unban of a ban that ran out only
    /// tidies the row.
    func setBanned(
        userID: Int, username: String, banned: Bool, until: Int? = nil, hideComments: Bool, actor: String,
        note: String, now: Int
    )
        throws -> BanChange
    {
        try database.write { connection in
            let id = SQLValue.integer(Int64(userID))
            let stored = try connection.query(
                "SELECT banned, banned_until FROM users WHERE id = ?", [id]
            ).first.flatMap { $0.int(0) != 0 ? User.Ban(until: $0.optionalInt(1)) : nil }
            let holding = User(id: userID, username: username, ban: stored).activeBan(at: now)
            let changed = banned ? holding != User.Ban(until: until) : holding != nil
            if banned {
                try connection.query(
                    "UPDATE users SET banned = 1, banned_until = ? WHERE id = ?",
                    [until.map { .integer(Int64($0)) } ?? .null, id])
            } else {
                try connection.query("UPDATE users SET banned = 0, banned_until = NULL WHERE id = ?", [id])
            }
            var hiddenCount = 0
            if banned {
                try connection.query("UPDATE sessions SET suspended = 1 WHERE user_id = ?", [id])
                if hideComments {
                    try connection.query(
                        """
                        UPDATE articles SET comment_count = comment_count - (
                            SELECT count(*) FROM comments c WHERE c.article_id = articles.id AND c.user_id = ? AND c.hidden = 0)
                        WHERE id IN (SELECT article_id FROM comments WHERE user_id = ? AND hidden = 0)
                        """, [id, id])
                    try connection.query("UPDATE comments SET hidden = 1 WHERE user_id = ? AND hidden = 0", [id])
                    hiddenCount = connection.changes
                    let repliedTo = try connection.query(
                        "SELECT DISTINCT reply_to_user FROM comments WHERE user_id = ? AND reply_to_user IS NOT NULL",
                        [id]
                    ).map { $0.int(0) }
                    try CommentStore.recountUnreadReplies(of: repliedTo, connection)
                    try connection.query(
                        "UPDATE comment_reports SET is_open = 0 WHERE comment_id IN (SELECT id FROM comments WHERE user_id = ?)",
                        [id])
                    try connection.query(
                        "UPDATE comments SET open_reports = 0 WHERE user_id = ? AND open_reports > 0", [id])
                }
            }
            guard changed || hiddenCount > 0 else { return .unchanged }
            var recorded = note
            if hiddenCount > 0 {
                recorded +=
                    (recorded.isEmpty ? "" : " — ") + "\(hiddenCount) comment\(hiddenCount == 1 ? "" : "s") hidden"
            }
            try Self.record(
                actor: actor, action: banned ? "ban" : "unban", target: "user \(username)", note: recorded, now: now,
                until: banned ? until : nil, connection)
            return .changed(hiddenComments: hiddenCount)
        }
    }

    /// The newest `limit` recorded actions, newest first.
    func recentActions(limit: Int) throws -> [ModerationAction] {
        try database.withConnection { connection in
            try connection.query(
                "SELECT actor, action, target, note, at, until_at FROM moderation_actions ORDER BY id DESC LIMIT ?",
                [.integer(Int64(limit))])
        }.map {
            ModerationAction(
                actor: $0.string(0), action: $0.string(1), target: $0.string(2), note: $0.string(3), at: $0.int(4),
                until: $0.optionalInt(5))
        }
    }

    private static func record(
        actor: String, action: String, target: String, note: String, now: Int, until: Int? = nil,
        _ connection: any SQLConnection
    ) throws {
        try connection.query(
            "INSERT INTO moderation_actions (actor, action, target, note, at, until_at) VALUES (?, ?, ?, ?, ?, ?)",
            [
                .text(actor), .text(action), .text(target), .text(note), .integer(Int64(now)),
                until.map { .integer(Int64($0)) } ?? .null,
            ])
    }
}
