/// Public profiles: who a reader is (name, joined) and what they wrote, newest first: comments
/// readers can see (not hidden, under a published article).
final class Profiles: Sendable {
    static let pageSize = 20
    /// Like the front page, a profile goes back a bounded number of pages (OFFSET grows with depth).
    static let maximumPage = 500

    enum Outcome: Sendable, Equatable {
        case profile(username: String, joined: Int, comments: [ProfileStore.ProfileComment], hasOlder: Bool)
        case noSuchUser
        case pastTheLast
    }

    private let store: ProfileStore
    private let clock: Clock

    init(store: ProfileStore, clock: Clock) {
        self.store = store
        self.clock = clock
    }

    func profile(of username: String, page: Int) throws -> Outcome {
        guard username.utf8.count <= 64, let account = try store.account(named: username) else { return .noSuchUser }
        guard page <= Self.maximumPage else { return .pastTheLast }
        let (comments, hasOlder) = try store.comments(
            userID: account.id, page: page, size: Self.pageSize, now: clock.now())
        if comments.isEmpty && page > 1 { return .pastTheLast }
        return .profile(
            username: account.username, joined: account.createdAt, comments: comments,
            hasOlder: hasOlder && page < Self.maximumPage)
    }
}
