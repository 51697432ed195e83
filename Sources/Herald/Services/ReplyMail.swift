/// Mail about replies (SPEC third wave, "Sign in by email link"): a reader with a confirmed
/// address may turn it on; at most one mail per `interval` collects the replies not yet mailed,
/// each reply in one mail only (`ReplyMailStore` claims them), sent off the request path
/// (`ReplyDigestSender`); every mail carries a one-click unsubscribe link that needs no login.
public final class ReplyMail: Sendable {
    /// At most one digest per reader in this many seconds.
    public static let interval = 15 * 60
    /// Readers handled in one round at most; the rest wait for the next one.
    static let readersPerRound = 500

    public enum Change: Sendable, Equatable {
        case turnedOn
        case turnedOff
        /// Mail goes only to an address that proved itself by opening a mailed link.
        case needsConfirmedAddress
        /// This site sends no mail (no `HERALD_SMTP_URL`): it cannot be turned on.
        case mailUnavailable
    }

    public enum Unsubscribe: Sendable, Equatable {
        /// Off now (it may have been off already: the link does the same every time).
        case unsubscribed(username: String)
        /// Not a token of any account: nothing changed.
        case noSuchToken
    }

    let store: ReplyMailStore
    let tokens: UnsubscribeTokens
    let clock: Clock

    init(store: ReplyMailStore, tokens: UnsubscribeTokens, clock: Clock) {
        self.store = store
        self.tokens = tokens
        self.clock = clock
    }

    /// `POST /account/reply-mail`: the acting reader turns their own setting on or off (off
    /// always works).
    public func set(_ on: Bool, by user: User, canSendMail: Bool) throws -> Change {
        if on, !canSendMail { return .mailUnavailable }
        guard try store.setReplyMail(userID: user.id, on: on, now: clock.now()) else { return .needsConfirmedAddress }
        return on ? .turnedOn : .turnedOff
    }

    /// The account an unsubscribe token is for (its name), checked; nil for a malformed, forged or
    /// stale token. Changes nothing (`GET` of the link).
    public func subscriber(token: String) throws -> (username: String, isOn: Bool)? {
        guard let userID = UnsubscribeTokens.userID(in: token), let account = try store.subscriber(userID: userID),
            tokens.isValid(token, userID: userID, createdAt: account.createdAt)
        else { return nil }
        return (account.username, account.isOn)
    }

    /// `POST /mail/unsubscribe/{token}`: turns the setting off for the token's account.
    public func unsubscribe(token: String) throws -> Unsubscribe {
        guard let userID = UnsubscribeTokens.userID(in: token), let subscriber = try subscriber(token: token) else {
            return .noSuchToken
        }
        _ = try store.setReplyMail(userID: userID, on: false, now: clock.now())
        return .unsubscribed(username: subscriber.username)
    }

    /// The token of the unsubscribe link in `digest`'s mail.
    public func unsubscribeToken(for digest: ReplyDigest) -> String {
        tokens.token(userID: digest.userID, createdAt: digest.accountCreatedAt)
    }

    // MARK: Digests

    /// The readers a round at `now` may mail.
    public func dueReaders(now: Int) throws -> [Int] {
        try store.dueReaders(now: now, interval: Self.interval, limit: Self.readersPerRound)
    }

    /// Claims the reader's digest (nil: not due, or claimed by another server, or nothing to mail).
    public func claimDigest(for userID: Int, now: Int) throws -> ReplyDigest? {
        try store.claimDigest(userID: userID, now: now, interval: Self.interval)
    }

    /// The mail could not be queued: its replies wait for the next round.
    public func release(_ digest: ReplyDigest) throws {
        try store.release(digest)
    }
}
