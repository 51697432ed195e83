/// Signing in by a mailed link (SPEC third wave, "Sign in by email link"): a 256-bit token of which
/// only the SHA-256 is stored, live 15 minutes, used once. Opening the link never logs in (mail
/// scanners and link previews follow links): its POST does. For an address with no account yet,
/// that POST creates one, with the name the reader chose and no password (it is signed into by link,
/// or given a password later through a reset).
extension Accounts {
    static let loginLinkLifetime = 15 * 60
    /// How long after a link's own 15 minutes the action it carried may still be confirmed.
    static let carriedActionGrace = 15 * 60
    /// What an account made by a link holds instead of a password hash: no password verifies
    /// against it (`crypto_pwhash_str_verify` refuses it), so only a link or a reset signs in.
    static let noPassword = "!no-password"

    public enum LoginLinkRequest: Sendable, Equatable {
        /// The link to mail (to every valid address: the answer is the same whether or not an
        /// account uses it), and the account's name when one does.
        case requested(token: String, email: String, username: String?)
        case invalidAddress
        case throttled(retryAfterSeconds: Int)
    }

    public enum LinkLogin: Sendable, Equatable {
        case loggedIn(User, sessionToken: String, link: LoginLinkRecord)
        /// A new account's name breaks a rule (the link is not used up).
        case invalidName([String])
        case usernameTaken
        case noSuchLink
        /// A moderator's ban holds on the account.
        case suspended(User.Ban)
    }

    /// `POST /login/link`: a link for `email`, limited like a password reset (per client address and
    /// per address asked about). `browser` is the asking browser's digest; `intent` the signed
    /// action pending there, carried with the link.
    public func requestLoginLink(email text: String, address: String, browser: String, intent: String?) throws
        -> LoginLinkRequest
    {
        guard let email = EmailAddress.normalized(text) else { return .invalidAddress }
        let window = settings.resetWindowSeconds
        if case .retryAfter(let seconds) = try limiter.check(
            .init(
                "link-address:" + ClientAddressKey.key(for: address), limit: settings.resetsPerAddress, window: window),
            .init("link-email:" + email, limit: settings.resetsPerEmail, window: window))
        {
            return .throttled(retryAfterSeconds: seconds)
        }
        let (token, hash) = Self.newLinkToken()
        let now = clock.now()
        try loginLinks.create(
            tokenHash: hash, email: email, browser: browser, intent: intent, now: now,
            expiresAt: now + Self.loginLinkLifetime)
        let username = try store.userID(email: email).flatMap { try store.account(id: $0) }?.user.username
        return .requested(token: token, email: email, username: username)
    }

    /// The link's page: its record and the account it signs into (nil: an address with no account
    /// yet); nil when the link is unknown, used or expired.
    public func loginLink(_ token: String) throws -> (link: LoginLinkRecord, account: User?)? {
        guard let hash = Self.tokenHash(token), let link = try loginLinks.unused(tokenHash: hash, now: clock.now())
        else { return nil }
        let account = try store.userID(email: link.email).flatMap { try store.account(id: $0) }?.user
        return (link, account)
    }

    /// Uses the link: logs into the account of its address, or creates one named `newUsername`.
    public func logIn(withLink token: String, newUsername: String?, address: String) throws -> LinkLogin {
        guard let hash = Self.tokenHash(token), let link = try loginLinks.unused(tokenHash: hash, now: clock.now())
        else { return .noSuchLink }
        let now = clock.now()
        var user = try store.userID(email: link.email).flatMap { try store.account(id: $0) }?.user
        if user == nil {
            let name = newUsername ?? ""
            let perAddress = RateLimiter.Rule(
                "register:" + ClientAddressKey.key(for: address), limit: settings.registrationsPerAddress,
                window: settings.registrationWindowSeconds)
            if case .retryAfter = try limiter.check(perAddress) {
                return .invalidName(["Too many accounts were created from your network. Please try again later."])
            }
            let problems = rules.usernameProblems(name)
            guard problems.isEmpty else { return .invalidName(problems) }
            if try store.credentials(username: name) != nil { return .usernameTaken }
            guard let created = try store.createUser(username: name, passwordHash: Self.noPassword, at: now) else {
                return .usernameTaken
            }
            // The link proved the mailbox: the address is the account's (unless taken meanwhile).
            _ = try store.setEmail(userID: created.id, to: link.email, confirmed: true)
            user = created
        }
        guard let user else { return .noSuchLink }
        if let ban = user.activeBan(at: now) { return .suspended(ban) }
        // Used in the statement that reads it: a second click (or another server) finds it gone.
        guard let used = try loginLinks.use(tokenHash: hash, now: now) else { return .noSuchLink }
        // Opening a link mailed to the address proves it is the reader's.
        try store.markEmailConfirmed(userID: user.id, email: link.email)
        return .loggedIn(user, sessionToken: try startSession(for: user, now: now), link: used)
    }

    /// The action a used link carries, for `user` (the account of the link's address) to confirm.
    public func carriedAction(_ token: String, for user: User, take: Bool) throws -> LoginLinkRecord? {
        guard let hash = Self.tokenHash(token) else { return nil }
        let now = clock.now()
        let found =
            take
            ? try loginLinks.takeCarriedIntent(tokenHash: hash, now: now, grace: Self.carriedActionGrace)
            : try loginLinks.carriedIntent(tokenHash: hash, now: now, grace: Self.carriedActionGrace)
        guard let found, try store.userID(email: found.email) == user.id else { return nil }
        return found
    }

    private static func newLinkToken() -> (token: String, hash: [UInt8]) {
        let bytes = Sodium.randomBytes(32)
        return (Sodium.base64URL(bytes), Sodium.sha256(bytes))
    }
}
