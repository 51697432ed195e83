/// Roles, given and taken on the command line (`herald users grant|revoke`).
extension Accounts {
    public enum RoleChange: Sendable, Equatable {
        case changed(User, roles: Roles)
        case unchanged(User, roles: Roles)
        case noSuchUser
    }

    public func accounts() throws -> [StoredAccount] {
        try store.allAccounts()
    }

    /// Grants or revokes `role`. It counts from the account's next request on every server, since
    /// roles are read with the session.
    public func change(_ role: Role, of username: String, granted: Bool) throws -> RoleChange {
        guard let account = try store.account(named: username) else { return .noSuchUser }
        let roles = granted ? account.roles.union(role.bit) : account.roles.subtracting(role.bit)
        guard roles != account.roles else { return .unchanged(account.user, roles: roles) }
        try store.setRoles(userID: account.user.id, to: roles)
        return .changed(account.user, roles: roles)
    }
}
