/// A reader's account. The password hash never leaves the store except for verification.
public struct User: Sendable, Equatable {
    public var id: Int
    public var username: String
    /// Read with the session on every request, so a role change counts from the next request.
    public var roles: Roles = []
    /// The ban a moderator set, as stored: it may have run out already. Ask `activeBan(at:)`.
    public var ban: Ban?
    /// Replies to their comments they have not seen yet (read with the session, for the header).
    public var unreadReplies = 0
    /// The interface language they chose (`en`, `zh-Hant`), for mail sent off any request; nil
    /// for the site's.
    public var language: String?

    /// A moderator's ban: until a time (seconds since 1970), or for good.
    public struct Ban: Sendable, Equatable {
        /// When it lifts itself; nil: permanent (until a moderator unbans).
        public var until: Int?

        public init(until: Int?) {
            self.until = until
        }
    }

    public init(
        id: Int, username: String, roles: Roles = [], ban: Ban? = nil, unreadReplies: Int = 0,
        language: String? = nil
    ) {
        self.language = language
        self.id = id
        self.username = username
        self.roles = roles
        self.ban = ban
        self.unreadReplies = unreadReplies
    }

    /// The ban in force at `now`, if any. The one place that decides whether an account is
    /// suspended (sessions, login, resets, links, posting): a ban whose time has passed is no ban,
    /// so expiry needs no job to lift it.
    public func activeBan(at now: Int) -> Ban? {
        guard let ban else { return nil }
        if let until = ban.until, until <= now { return nil }
        return ban
    }

    /// Whether a moderator's ban holds at `now` (`activeBan(at:)`).
    public func isBanned(at now: Int) -> Bool { activeBan(at: now) != nil }
}
