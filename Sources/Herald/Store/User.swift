/// A reader's account. The password hash never leaves the store except for verification.
public struct User: Sendable, Equatable {
    public var id: Int
    public var username: String
    /// Read with the session on every request, so a role change counts from the next request.
    public var roles: Roles = []
    /// Suspended by a moderator: cannot log in, and its sessions no longer work.
    public var isBanned = false
    /// Replies to their comments they have not seen yet (read with the session, for the header).
    public var unreadReplies = 0
    /// The interface language they chose (`en`, `zh-Hant`), for mail sent off any request; nil
    /// for the site's.
    public var language: String?

    public init(
        id: Int, username: String, roles: Roles = [], isBanned: Bool = false, unreadReplies: Int = 0,
        language: String? = nil
    ) {
        self.language = language
        self.id = id
        self.username = username
        self.roles = roles
        self.isBanned = isBanned
        self.unreadReplies = unreadReplies
    }
}
