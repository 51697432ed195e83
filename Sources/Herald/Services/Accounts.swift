import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Registration, login, sessions and their limits. Knows nothing of HTTP.
public final class Accounts: Sendable {
    public enum LoginOutcome: Sendable {
        case loggedIn(User, sessionToken: String)
        /// Unknown user or wrong password: deliberately indistinguishable.
        case failed
        case throttled(retryAfterSeconds: Int)
        /// The password is right, but a moderator's ban holds: until when, to say so.
        case suspended(User.Ban)
    }

    public enum RegistrationOutcome: Sendable {
        case registered(User, sessionToken: String)
        case invalid([String])
        case usernameTaken
        case emailTaken
        case throttled(retryAfterSeconds: Int)
    }

    public let settings: AccountSettings
    // Internal, not private: the account's later life (Accounts+Settings.swift, +Roles, +Reset)
    // extends this service in files of its own.
    let store: AccountStore
    /// Email changes waiting for their new address to confirm (Accounts+EmailChange.swift).
    let emailChanges: EmailChangeStore
    let loginLinks: LoginLinkStore
    let limiter: RateLimiter
    let rules: AccountRules
    let hashing: PasswordHashing
    let clock: Clock
    /// A hash of nothing in particular, verified against when the username is unknown, so that
    /// a login for a missing account costs exactly what a wrong password costs. Made on first use
    /// (on the hashing pool), not at start-up, where it would cost ~100 ms.
    private let dummyHash = Mutex<String?>(nil)
    /// Password verifications run so far (lets tests see that an unknown user cost a real one).
    public let verifications = Atomic<Int>(0)

    public init(
        store: AccountStore, limiter: RateLimiter, rules: AccountRules, settings: AccountSettings, clock: Clock
    ) throws {
        self.store = store
        emailChanges = EmailChangeStore(database: store.database)
        loginLinks = LoginLinkStore(database: store.database)
        self.limiter = limiter
        self.rules = rules
        self.settings = settings
        self.clock = clock
        hashing = PasswordHashing(cost: settings.passwordCost)
    }

    /// A new account; `email` is optional (empty or nil: none).
    public func register(
        username: String, password: String, email: String? = nil, address: String, language: String? = nil
    ) throws -> RegistrationOutcome {
        let now = clock.now()
        // Every attempt counts, so the form cannot be used to probe for taken names without limit.
        let perAddress = RateLimiter.Rule(
            "register:" + ClientAddressKey.key(for: address), limit: settings.registrationsPerAddress,
            window: settings.registrationWindowSeconds)
        if case .retryAfter(let seconds) = try limiter.check(perAddress) {
            return .throttled(retryAfterSeconds: seconds)
        }
        var problems = rules.usernameProblems(username) + rules.passwordProblems(password)
        let typedEmail = email.flatMap { $0.unicodeScalars.allSatisfy(\.properties.isWhitespace) ? nil : $0 }
        let normalizedEmail = typedEmail.flatMap(EmailAddress.normalized)
        if typedEmail != nil && normalizedEmail == nil {
            problems.append("That does not look like an email address (name@example.com). Leave it empty or check it.")
        }
        guard problems.isEmpty else { return .invalid(problems) }
        if try store.credentials(username: username) != nil { return .usernameTaken }
        if let normalizedEmail, try store.userID(email: normalizedEmail) != nil { return .emailTaken }

        let hash = try hashing.hash(password)
        guard let user = try store.createUser(username: username, passwordHash: hash, at: now) else {
            return .usernameTaken  // taken between the check and the insert
        }
        if let language { try setLanguage(language, of: user.id) }
        if let normalizedEmail, try !store.setEmail(userID: user.id, to: normalizedEmail) {
            // Taken between the check and now: the account stands, without the address.
            return .registered(user, sessionToken: try startSession(for: user, now: now))
        }
        return .registered(user, sessionToken: try startSession(for: user, now: now))
    }

    public func login(username: String, password: String, address: String) throws -> LoginOutcome {
        switch try checkPassword(username: username, password: password, address: address) {
        case .failed: return .failed
        case .throttled(let seconds): return .throttled(retryAfterSeconds: seconds)
        case .matches(let user):
            let now = clock.now()
            if let ban = user.activeBan(at: now) { return .suspended(ban) }
            try store.purgeExpiredSessions(
                now: now, idleLimit: settings.sessionIdleSeconds, absoluteLimit: settings.sessionAbsoluteSeconds,
                keepingFor: Self.recentSessionSeconds)
            return .loggedIn(user, sessionToken: try startSession(for: user, now: now))
        }
    }

    enum PasswordCheck {
        case matches(User)
        case failed
        case throttled(retryAfterSeconds: Int)
    }

    /// Whether `password` is the account's, counted like a login: a wrong one counts toward the
    /// limits per name and per address, whatever form it came from.
    func checkPassword(username: String, password: String, address: String) throws -> PasswordCheck {
        let window = settings.loginWindowSeconds
        // Each attempt takes its place in both windows before the password is checked, so that
        // parallel guesses cannot all pass a count taken before any of them failed; a right
        // password gives its place back.
        let byName = RateLimiter.Rule(
            "login-name:" + AccountStore.key(String(username.prefix(64))), limit: settings.loginFailuresPerUsername,
            window: window)
        let byAddress = RateLimiter.Rule(
            "login-address:" + ClientAddressKey.key(for: address), limit: settings.loginFailuresPerAddress,
            window: window)
        let reservation: RateLimiter.Reservation
        switch try limiter.check(byName, byAddress) {
        case .retryAfter(let seconds): return .throttled(retryAfterSeconds: seconds)
        case .allowed(let taken): reservation = taken
        }

        let credentials = username.utf8.count <= 64 ? try store.credentials(username: username) : nil
        verifications.add(1, ordering: .relaxed)
        let matches = hashing.verify(password, against: try credentials?.passwordHash ?? unknownUserHash())
        guard let credentials, matches else { return .failed }
        try limiter.giveBack(reservation)
        if hashing.needsRehash(credentials.passwordHash) {
            try store.updatePasswordHash(userID: credentials.user.id, to: try hashing.hash(password))
        }
        return .matches(credentials.user)
    }

    /// The reader a session cookie belongs to, if the session is alive.
    public func user(sessionToken: String) throws -> User? {
        if case .active(let user) = try session(sessionToken) { return user }
        return nil
    }

    /// What a session cookie stands for: a live session, one its account's ban ended (deleted
    /// as it is found), or nothing.
    public func session(_ sessionToken: String) throws -> AccountStore.SessionState? {
        guard let hash = Self.tokenHash(sessionToken) else { return nil }
        return try store.session(
            tokenHash: hash, now: clock.now(), idleLimit: settings.sessionIdleSeconds,
            absoluteLimit: settings.sessionAbsoluteSeconds, touchAfter: settings.sessionTouchSeconds)
    }

    /// How long a session that ended by expiry still says whose it was (`recentSessionOwner`):
    /// an editor who wrote past their session's end is still known when they press Save.
    public static let recentSessionSeconds = 24 * 3_600

    /// The account whose session `token` is or was within the last 24 hours (live, or ended by
    /// expiry); nil for an unknown token, a logged-out or suspended session, or a banned account.
    public func recentSessionOwner(_ token: String) throws -> User? {
        guard let hash = Self.tokenHash(token) else { return nil }
        return try store.recentOwner(
            tokenHash: hash, now: clock.now(), idleLimit: settings.sessionIdleSeconds,
            absoluteLimit: settings.sessionAbsoluteSeconds, grace: Self.recentSessionSeconds)
    }

    public func logout(sessionToken: String) throws {
        guard let hash = Self.tokenHash(sessionToken) else { return }
        try store.deleteSession(tokenHash: hash)
    }

    private func unknownUserHash() throws -> String {
        if let hash = dummyHash.withLock({ $0 }) { return hash }
        let hash = try hashing.hash(Sodium.base64URL(Sodium.randomBytes(18)))
        dummyHash.withLock { $0 = $0 ?? hash }
        return hash
    }

    /// A new random token for `user`; only its SHA-256 is stored.
    func startSession(for user: User, now: Int) throws -> String {
        let token = Sodium.randomBytes(32)
        try store.createSession(tokenHash: Sodium.sha256(token), userID: user.id, at: now)
        return Sodium.base64URL(token)
    }

    /// The stored form of a cookie's token; nil for anything that is not one of ours.
    static func tokenHash(_ token: String) -> [UInt8]? {
        guard token.utf8.count == 43, let bytes = Sodium.decodeBase64URL(token), bytes.count == 32 else {
            return nil
        }
        return Sodium.sha256(bytes)
    }
}
