/// Password reset by a single-use link: a 256-bit token of which only the SHA-256 is stored,
/// live for an hour, voided with every other token of the account when the password changes.
extension Accounts {
    static let resetLinkLifetime = 3_600

    public enum ResetRequest: Sendable, Equatable {
        /// A link for the account using that address (sent to the address as stored); nil when no
        /// account uses it (the caller answers the same either way).
        case requested(ResetLink?)
        case invalidAddress
        case throttled(retryAfterSeconds: Int)
    }

    public struct ResetLink: Sendable, Equatable {
        public let token: String
        public let username: String
        public let email: String
    }

    public enum Reset: Sendable, Equatable {
        /// Set; every session of the account ended, and a new one started for the reader.
        case reset(User, sessionToken: String)
        case invalid([String])
        /// Unknown, used or expired.
        case noSuchLink
        /// A moderator's ban holds on the account.
        case suspended(User.Ban)
    }

    /// `/password/forgot`: a link for the account that uses `email`, limited per client address and
    /// per address asked about. The same work is done whether or not an account uses it.
    public func requestPasswordReset(email text: String, address: String) throws -> ResetRequest {
        guard let email = EmailAddress.normalized(text) else { return .invalidAddress }
        let window = settings.resetWindowSeconds
        if case .retryAfter(let seconds) = try limiter.check(
            .init(
                "reset-address:" + ClientAddressKey.key(for: address), limit: settings.resetsPerAddress, window: window),
            .init("reset-email:" + email, limit: settings.resetsPerEmail, window: window))
        {
            return .throttled(retryAfterSeconds: seconds)
        }
        let (token, hash) = Self.newResetToken()
        guard let userID = try store.userID(email: email), let account = try store.account(id: userID) else {
            return .requested(nil)
        }
        let now = clock.now()
        try store.createPasswordReset(
            tokenHash: hash, userID: userID, now: now, expiresAt: now + Self.resetLinkLifetime)
        return .requested(ResetLink(token: token, username: account.user.username, email: email))
    }

    /// A link for an operator to hand over (`herald users reset-link NAME`); nil for an unknown name.
    public func passwordResetToken(for username: String) throws -> String? {
        guard let account = try store.account(named: username) else { return nil }
        let (token, hash) = Self.newResetToken()
        let now = clock.now()
        try store.createPasswordReset(
            tokenHash: hash, userID: account.user.id, now: now, expiresAt: now + Self.resetLinkLifetime)
        return token
    }

    /// Whether a link is live (for showing its form).
    public func isLiveResetLink(_ token: String) throws -> Bool {
        guard let hash = Self.tokenHash(token) else { return false }
        return try store.passwordResetUser(tokenHash: hash, now: clock.now()) != nil
    }

    /// Sets the new password through a live link, ends every session of the account and
    /// logs the reader in.
    public func resetPassword(token: String, to new: String) throws -> Reset {
        guard let hash = Self.tokenHash(token),
            let holder = try store.passwordResetUser(tokenHash: hash, now: clock.now())
        else { return .noSuchLink }
        // A banned account keeps its password and its link: a reset must not be a way back in.
        if let ban = try store.account(id: holder)?.user.activeBan(at: clock.now()) { return .suspended(ban) }
        let problems = rules.passwordProblems(new)
        guard problems.isEmpty else { return .invalid(problems) }
        let now = clock.now()
        guard let userID = try store.resetPassword(tokenHash: hash, to: try hashing.hash(new), now: now),
            let account = try store.account(id: userID)
        else { return .noSuchLink }
        // As with a change of password: a change of address asked for with the old one lapses.
        try emailChanges.cancel(userID: userID)
        return .reset(account.user, sessionToken: try startSession(for: account.user, now: now))
    }

    private static func newResetToken() -> (token: String, hash: [UInt8]) {
        let bytes = Sodium.randomBytes(32)
        return (Sodium.base64URL(bytes), Sodium.sha256(bytes))
    }
}
