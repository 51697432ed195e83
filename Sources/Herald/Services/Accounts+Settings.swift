import Foundation

/// What a reader does on `/account`: change the password, end other sessions, export their
/// data, delete the account (the email address: Accounts+EmailChange.swift).
extension Accounts {
    public enum PasswordChange: Sendable, Equatable {
        /// Changed; every other session ended, and this one renewed with a new token.
        case changed(sessionToken: String)
        /// The current password was wrong (and counted as a failed login).
        case wrongPassword
        case invalid([String])
        case throttled(retryAfterSeconds: Int)
    }

    public enum Deletion: Sendable, Equatable {
        case deleted
        case wrongPassword
        case throttled(retryAfterSeconds: Int)
    }

    public func changePassword(
        of user: User, current: String, new: String, sessionToken: String, address: String
    ) throws -> PasswordChange {
        let problems = rules.passwordProblems(new)
        switch try checkPassword(username: user.username, password: current, address: address) {
        case .failed: return .wrongPassword
        case .throttled(let seconds): return .throttled(retryAfterSeconds: seconds)
        case .matches: break
        }
        guard problems.isEmpty else { return .invalid(problems) }
        try store.changePassword(userID: user.id, to: try hashing.hash(new))
        // A change of address asked for with the old password goes with it: whoever knew that
        // password cannot still move the account's mail after the reader has locked them out.
        try emailChanges.cancel(userID: user.id)
        try store.deleteSessions(userID: user.id)
        return .changed(sessionToken: try startSession(for: user, now: clock.now()))
    }

    /// Ends every session of the reader's but the one they are using.
    public func endOtherSessions(of user: User, keeping sessionToken: String) throws {
        guard let hash = Self.tokenHash(sessionToken) else { return }
        try store.deleteSessions(userID: user.id, keeping: hash)
    }

    public func account(of user: User) throws -> StoredAccount? {
        try store.account(id: user.id)
    }

    /// Everything Herald holds about the reader, as SPEC lists it: no hashes, no tokens.
    public func export(of user: User) throws -> Data? {
        guard let account = try store.account(id: user.id) else { return nil }
        let export = AccountExport(
            username: account.user.username, created: DateText.rfc3339(account.createdAt), email: account.email,
            roles: account.roles.names,
            likes: try store.exportedLikes(userID: user.id).map {
                .init(slug: $0.slug, title: $0.title, time: DateText.rfc3339($0.at))
            },
            comments: try store.exportedComments(userID: user.id).map {
                .init(id: $0.id, article: $0.slug, text: $0.text, time: DateText.rfc3339($0.at))
            })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(export)
    }

    /// Deletes the account once its password is confirmed.
    public func delete(_ user: User, password: String, address: String) throws -> Deletion {
        switch try checkPassword(username: user.username, password: password, address: address) {
        case .failed: return .wrongPassword
        case .throttled(let seconds): return .throttled(retryAfterSeconds: seconds)
        case .matches: break
        }
        try store.deleteAccount(userID: user.id)
        return .deleted
    }
}

/// `GET /account/export`'s JSON (SPEC, "Accounts").
struct AccountExport: Encodable {
    struct Like: Encodable {
        let slug: String
        let title: String
        let time: String
    }

    struct Comment: Encodable {
        let id: Int
        let article: String
        let text: String
        let time: String
    }

    let username: String
    let created: String
    let email: String?
    let roles: [String]
    let likes: [Like]
    let comments: [Comment]
}
