import TextSupport

/// Moderation: readers report comments; moderators hide and restore them, dismiss reports, and
/// ban or unban accounts; every action is recorded with who did it (a moderator, or `cli` for the
/// command line). Knows nothing of HTTP.
final class Moderation: Sendable {
    static let queuePageSize = 20
    static let recentActionCount = 100
    static let maximumNoteCharacters = 500

    /// Why a reader reports a comment; the raw values are the form's `reason` values.
    enum Reason: String, Sendable, CaseIterable {
        case spam, abuse
        case offTopic = "off-topic"
        case other

        var label: String {
            switch self {
            case .spam: "Spam"
            case .abuse: "Abuse or harassment"
            case .offTopic: "Off topic"
            case .other: "Something else"
            }
        }
    }

    /// Who acts: an account through the site (checked here to be a moderator), or the operator on
    /// the command line.
    enum Actor: Sendable {
        case moderator(User)
        case commandLine

        var name: String {
            switch self {
            case .moderator(let user): user.username
            case .commandLine: "cli"
            }
        }

        /// Whether it may moderate: the command line always; an account when it holds the role now.
        var mayModerate: Bool {
            switch self {
            case .moderator(let user): Moderation.mayModerate(user)
            case .commandLine: true
            }
        }
    }

    static let moderatorsOnly = "Only the site's moderators can do this. Your account is not one."

    /// Whether `user` moderates (admins are moderators too): what pages ask before offering a
    /// moderator's forms.
    static func mayModerate(_ user: User?) -> Bool {
        user?.roles.grants(.moderator) == true
    }

    enum ReportOutcome: Sendable, Equatable {
        /// Counted; the article holding the comment.
        case reported(articleSlug: String)
        /// This reader had reported it already: counted once.
        case alreadyReported(articleSlug: String)
        case ownComment
        case unknownReason
        /// Unknown, hidden, or under an article readers cannot see.
        case noSuchComment
    }

    enum CommentOutcome: Sendable, Equatable {
        case changed(articleSlug: String)
        case unchanged(articleSlug: String)
        case noSuchComment
        case noteTooLong
        case notAllowed(String)
    }

    enum BanOutcome: Sendable, Equatable {
        /// In force until `until` (nil: permanent).
        case banned(hiddenComments: Int, until: Int?)
        case unbanned
        case unchanged
        /// A moderator's ban says why (the command line's need not).
        case reasonRequired
        case noSuchUser
        /// Only the command line bans an admin.
        case cannotBanAdmin
        case cannotBanSelf
        case noteTooLong
        case notAllowed(String)
    }

    private let store: ModerationStore
    private let comments: CommentStore
    private let accounts: AccountStore
    private let articles: ArticleStore
    private let clock: Clock

    init(store: ModerationStore, comments: CommentStore, accounts: AccountStore, articles: ArticleStore, clock: Clock) {
        self.store = store
        self.comments = comments
        self.accounts = accounts
        self.articles = articles
        self.clock = clock
    }

    /// The article holding a comment readers can see; nil otherwise.
    func visibleArticleSlug(ofComment id: Int) throws -> String? {
        guard let comment = try comments.comment(id: id), !comment.isHidden,
            let slug = try articles.slug(id: comment.articleID),
            let article = try articles.article(slug: slug), article.isPublished(at: clock.now())
        else { return nil }
        return slug
    }

    func report(commentID: Int, reason text: String, by reader: User) throws -> ReportOutcome {
        guard let comment = try comments.comment(id: commentID), !comment.isHidden,
            let slug = try visibleArticleSlug(ofComment: commentID)
        else { return .noSuchComment }
        guard comment.userID != reader.id else { return .ownComment }
        guard let reason = Reason(rawValue: text) else { return .unknownReason }
        switch try store.report(commentID: commentID, by: reader.id, reason: reason.rawValue, now: clock.now()) {
        case .reported: return .reported(articleSlug: slug)
        case .alreadyReported: return .alreadyReported(articleSlug: slug)
        }
    }

    func setHidden(commentID: Int, hidden: Bool, note: String, by actor: Actor) throws -> CommentOutcome {
        guard actor.mayModerate else { return .notAllowed(Self.moderatorsOnly) }
        guard let note = Self.checkedNote(note) else { return .noteTooLong }
        switch try store.setHidden(
            commentID: commentID, hidden: hidden, actor: actor.name, note: note, now: clock.now())
        {
        case .changed(let slug): return .changed(articleSlug: slug)
        case .unchanged(let slug): return .unchanged(articleSlug: slug)
        case .noSuchComment: return .noSuchComment
        }
    }

    enum DismissOutcome: Sendable, Equatable {
        case dismissed
        /// The comment had no open reports (or does not exist): nothing changed.
        case noneOpen
        case noteTooLong
        case notAllowed(String)
    }

    /// Closes the comment's open reports. A note too long is refused, as for hiding.
    func dismissReports(commentID: Int, note: String, by actor: Actor) throws -> DismissOutcome {
        guard actor.mayModerate else { return .notAllowed(Self.moderatorsOnly) }
        guard let note = Self.checkedNote(note) else { return .noteTooLong }
        let closed = try store.dismissReports(commentID: commentID, actor: actor.name, note: note, now: clock.now())
        return closed == nil ? .noneOpen : .dismissed
    }

    /// Bans (for `length`, from now) or unbans an account. A ban's note is its reason, required of
    /// a moderator; banning again while a ban holds replaces its length (and is recorded).
    func setBanned(
        _ username: String, banned: Bool, for length: BanLength = .permanent, hideComments: Bool, note: String,
        by actor: Actor
    ) throws -> BanOutcome {
        guard actor.mayModerate else { return .notAllowed(Self.moderatorsOnly) }
        guard let note = Self.checkedNote(note) else { return .noteTooLong }
        if banned, note.isEmpty, case .moderator = actor { return .reasonRequired }
        guard username.utf8.count <= 64, let account = try accounts.account(named: username) else { return .noSuchUser }
        if banned, case .moderator(let moderator) = actor {
            if moderator.id == account.user.id { return .cannotBanSelf }
            if account.roles.grants(.admin) { return .cannotBanAdmin }
        }
        let now = clock.now()
        let until = banned ? length.seconds.map { now + $0 } : nil
        switch try store.setBanned(
            userID: account.user.id, username: account.user.username, banned: banned, until: until,
            hideComments: hideComments, actor: actor.name, note: note, now: now)
        {
        case .changed(let hidden): return banned ? .banned(hiddenComments: hidden, until: until) : .unbanned
        case .unchanged: return .unchanged
        }
    }

    /// The open reports, most reported first, and the record of recent actions, for a moderator.
    /// The time the queue's "2 hours ago" counts from.
    var now: Int { clock.now() }

    func queue(page: Int, by actor: Actor) throws
        -> Permitted<(comments: [ReportedComment], hasMore: Bool, actions: [ModerationAction])>
    {
        guard actor.mayModerate else { return .notAllowed(Self.moderatorsOnly) }
        let (comments, hasMore) = try store.openReports(page: page, size: Self.queuePageSize)
        return .allowed((comments, hasMore, try store.recentActions(limit: Self.recentActionCount)))
    }

    /// One line, at most `maximumNoteCharacters`; nil when longer.
    private static func checkedNote(_ note: String) -> String? {
        let line = note.singleLine
        return line.count <= maximumNoteCharacters ? line : nil
    }
}
