/// A reader's account. The password hash never leaves the store except for verification.
public struct User: Sendable, Equatable {
    public var id: Int
    public var username: String
    /// Read with the session on every request, so a role change counts from the next request.
    public var roles: Roles = []

    public init(id: Int, username: String, roles: Roles = []) {
        self.id = id
        self.username = username
        self.roles = roles
    }
}
