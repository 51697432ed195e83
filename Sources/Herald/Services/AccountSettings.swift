/// Limits and costs for accounts. Every value here is documented in the README with its default.
public struct AccountSettings: Sendable {
    /// argon2id cost; `.minimum` only when explicitly configured (tests), never by default.
    public var passwordCost: PasswordHashing.Cost = .interactive
    /// Threads that hash and verify passwords (each needs ~64 MiB while it works).
    public var hashingThreads = 2
    /// Logins that may wait for a hashing thread before new ones are answered 503.
    public var hashingQueueLimit = 32

    public var sessionIdleSeconds = 14 * 86_400
    public var sessionAbsoluteSeconds = 30 * 86_400
    /// A session's last-seen time is written at most this often.
    public var sessionTouchSeconds = 3_600

    public var loginFailuresPerUsername = 10
    public var loginFailuresPerAddress = 100
    public var loginWindowSeconds = 15 * 60
    public var registrationsPerAddress = 300
    public var registrationWindowSeconds = 3_600
    /// Password-reset requests per client address and per email address, per window.
    public var resetsPerAddress = 10
    public var resetsPerEmail = 3
    public var resetWindowSeconds = 3_600
    /// Email changes asked for (password right) per account and per new address, per window:
    /// each mails a link to an address someone typed, so neither may be a way to flood a mailbox.
    public var emailChangesPerAccount = 5
    public var emailChangesPerEmail = 3
    public var emailChangeWindowSeconds = 3_600

    public init() {}
}
