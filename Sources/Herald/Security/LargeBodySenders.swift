import HTTP

/// Who may send a body past the server's 64 KiB (an article with its image, up to 6 MB), and so
/// hold part of the server's large-body budget while it arrives: a browser whose session cookie
/// names an editor's session that is live, or ended by expiry within the last day
/// (`Accounts.recentSessionOwner`) — a save pressed just after the session ended is still that
/// editor's, and is parked for after the login. Only the newsroom takes bodies that large, so a
/// reader's session does not qualify either. Anyone else is refused (413) before a byte of the
/// body is read: strangers cannot hold the budget that editors' uploads need.
///
/// Each admitted client is counted by its address as the rate limits count it (the trusted
/// proxy's `X-Forwarded-For`, an IPv6 /64), and may hold only a share of the budget.
struct LargeBodySenders: Sendable {
    let accounts: Accounts
    let trustProxy: Bool
    let log: Logger

    /// Over HTTPS the session cookie carries the `__Host-` prefix; either name is read.
    static let sessionCookies = [HeraldCookie.session.name(secure: true), HeraldCookie.session.name(secure: false)]

    /// The client `head` is counted against, or nil when it may not send a large body.
    func client(for head: Request) -> String? {
        let cookies = head.cookies
        guard let token = Self.sessionCookies.lazy.compactMap({ cookies[$0] }).first else { return nil }
        let owner: User?
        do {
            owner = try accounts.recentSessionOwner(token)
        } catch {
            // Refusing is the safe answer: the sender is told to try again (413), nothing is held.
            log.warning("could not look up the session of a large upload: \(error)")
            return nil
        }
        guard let owner, Newsroom.mayWrite(owner) else { return nil }
        return ClientAddressKey.key(for: ClientInfo.clientAddress(of: head, trustProxy: trustProxy))
    }
}
