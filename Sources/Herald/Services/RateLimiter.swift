/// The one rate limiter: a named scope may see `limit` events per `window` seconds, counted
/// across every server of the site. Checking and recording are one step (see `RateLimitStore`).
public final class RateLimiter: Sendable {
    public enum Decision: Sendable, Equatable {
        /// Allowed, and counted; `reservation` can be given back when the event should not count.
        case allowed(Reservation)
        case retryAfter(seconds: Int)
    }

    /// The events recorded for one allowed attempt.
    public struct Reservation: Sendable, Equatable {
        fileprivate let eventIDs: [Int]
    }

    public struct Rule: Sendable {
        public let scope: String
        public let limit: Int
        public let window: Int

        public init(_ scope: String, limit: Int, window: Int) {
            self.scope = scope
            self.limit = limit
            self.window = window
        }
    }

    private let store: RateLimitStore
    private let clock: Clock

    public init(store: RateLimitStore, clock: Clock) {
        self.store = store
        self.clock = clock
    }

    /// Counts one event against every rule, or none when any rule's window is full.
    public func check(_ rules: Rule...) throws -> Decision {
        let windows = rules.map { RateLimitStore.Window(scope: $0.scope, limit: $0.limit, seconds: $0.window) }
        switch try store.take(windows, now: clock.now()) {
        case .recorded(let ids): return .allowed(Reservation(eventIDs: ids))
        case .full(let seconds): return .retryAfter(seconds: seconds)
        }
    }

    /// Uncounts an allowed attempt (a login that turned out to be right).
    public func giveBack(_ reservation: Reservation) throws {
        try store.remove(eventIDs: reservation.eventIDs)
    }
}
