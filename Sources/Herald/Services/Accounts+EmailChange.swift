/// Changing the account's email address (SPEC third wave; issue #28). A change is never one step:
/// the current password is asked, and the new address counts only once it has confirmed a link
/// mailed to it, so neither a planted request nor a borrowed session can point the account (and
/// its password resets) at someone else's mailbox. Whether another account holds the new address
/// changes nothing the reader sees. Removing the address needs the password and is immediate.
extension Accounts {
    /// How long a confirmation link works: a day, where a reset link has an hour. A reset link
    /// *is* the account (whoever holds it sets the password), so its window is kept short; this
    /// one only proves that the new mailbox is the reader's own, for a change that the account's
    /// password already allowed, and mail to a new address (often a work or school account, or
    /// one the reader set up a minute ago) can take a while to be read. A day covers that; longer
    /// would leave a change the reader forgot about waiting to be confirmed by whoever later
    /// reads that mailbox.
    static let emailChangeLinkLifetime = 86_400

    public enum EmailChangeRequest: Sendable, Equatable {
        /// Waiting for `email` to confirm. `link` is what to mail there; nil when another account
        /// holds the address: nothing is sent, and the answer must not differ.
        case requested(email: String, link: EmailChangeLink?)
        /// The address is gone, at once; `previous` is where to send the notice (nil: there was none).
        case removed(previous: String?)
        /// The typed address is the account's own already; a change waiting was dropped.
        case unchanged(String)
        case invalid
        /// No current password was typed: nothing was verified, so nothing is counted (a form
        /// coming back after login, or one sent without the field, is not a guess).
        case passwordMissing
        /// Wrong, and counted as a failed login.
        case wrongPassword
        /// This site sends no mail, so a new address could never be confirmed.
        case mailUnavailable
        /// Too many wrong passwords: the login limits.
        case throttled(retryAfterSeconds: Int)
        /// Too many changes asked for this account, or to this address.
        case tooManyRequests(retryAfterSeconds: Int)
    }

    public struct EmailChangeLink: Sendable, Equatable {
        public let token: String
        public let username: String
        /// The new address: where the link goes.
        public let email: String
    }

    public enum EmailConfirmation: Sendable, Equatable {
        /// Set; `previous` is the address it replaced, for the notice.
        case changed(User, email: String, previous: String?)
        /// Another account took the address after the change was asked for: nothing changed.
        case taken(String)
        /// Unknown, used, replaced or expired.
        case noSuchLink
        /// A moderator banned the account: nothing of it is performed.
        case suspended
    }

    /// `POST /account/email`: `text` empty removes the address, anything else asks for a change.
    /// `canSendMail` false (no `HERALD_SMTP_URL`): a new address is refused, since no link could
    /// ever confirm it; removing still works.
    public func requestEmailChange(
        of user: User, to text: String, password: String, address: String, canSendMail: Bool
    ) throws -> EmailChangeRequest {
        let removing = text.unicodeScalars.allSatisfy(\.properties.isWhitespace)
        var email: String?
        if !removing {
            guard let normalized = EmailAddress.normalized(text) else { return .invalid }
            email = normalized
        }
        let current = try store.account(id: user.id)?.email
        if let email, email != current, !canSendMail { return .mailUnavailable }
        guard !password.isEmpty else { return .passwordMissing }
        switch try checkPassword(username: user.username, password: password, address: address) {
        case .failed: return .wrongPassword
        case .throttled(let seconds): return .throttled(retryAfterSeconds: seconds)
        case .matches: break
        }

        guard let email else {
            _ = try store.setEmail(userID: user.id, to: nil)
            try emailChanges.cancel(userID: user.id)
            return .removed(previous: current)
        }
        if email == current {
            try emailChanges.cancel(userID: user.id)
            return .unchanged(email)
        }
        // Counted only once the password matched (a wrong one is counted as a failed login), and
        // whoever holds the address: a limit reached only for free addresses would tell them apart.
        let window = settings.emailChangeWindowSeconds
        if case .retryAfter(let seconds) = try limiter.check(
            .init("email-change-account:\(user.id)", limit: settings.emailChangesPerAccount, window: window),
            .init("email-change-email:" + email, limit: settings.emailChangesPerEmail, window: window))
        {
            return .tooManyRequests(retryAfterSeconds: seconds)
        }
        let bytes = Sodium.randomBytes(32)
        let token = Sodium.base64URL(bytes)
        let now = clock.now()
        // Recorded whoever holds the address, so the account page shows the same "waiting for
        // confirmation" line either way; for a held address the token is simply never given to
        // anyone, so the change can never be confirmed and lapses.
        try emailChanges.request(
            userID: user.id, email: email, tokenHash: Sodium.sha256(bytes), now: now,
            expiresAt: now + Self.emailChangeLinkLifetime)
        let heldElsewhere = try store.userID(email: email) != nil
        return .requested(
            email: email,
            link: heldElsewhere ? nil : EmailChangeLink(token: token, username: user.username, email: email))
    }

    /// The address the account asked to change to, while its link is live (the account page).
    public func pendingEmail(of user: User) throws -> String? {
        try emailChanges.pending(userID: user.id, now: clock.now())?.email
    }

    /// What a live link would do (its confirmation page): the account's name and the new
    /// address; nil for an unknown, used or expired token. Changes nothing.
    public func emailChange(token: String) throws -> (username: String, email: String)? {
        guard let hash = Self.tokenHash(token),
            let change = try emailChanges.pending(tokenHash: hash, now: clock.now()),
            let account = try store.account(id: change.userID)
        else { return nil }
        return (account.user.username, change.email)
    }

    /// `POST /account/email/confirm/{token}`: the token is the proof (no login needed). Sets the
    /// address if no other account holds it, and spends the token.
    public func confirmEmailChange(token: String) throws -> EmailConfirmation {
        guard let hash = Self.tokenHash(token), let change = try emailChanges.pending(tokenHash: hash, now: clock.now())
        else { return .noSuchLink }
        if try store.account(id: change.userID)?.user.isBanned(at: clock.now()) == true { return .suspended }
        switch try emailChanges.confirm(tokenHash: hash, now: clock.now()) {
        case .changed(let userID, let email, let previous):
            guard let account = try store.account(id: userID) else { return .noSuchLink }
            return .changed(account.user, email: email, previous: previous)
        case .taken: return .taken(change.email)
        case .noSuchLink: return .noSuchLink
        }
    }
}
