import Synchronization

/// Bounds the memory held by bodies above the server's own limit, in all and per client.
///
/// A route may accept a body far larger than the server's default (an image upload), and its
/// body is buffered before any handler runs. Without a bound, every connection a client may open
/// could hold that much. Each such request — from a client the app admits at all
/// (`Responder.largeBodyClient(for:)`) — reserves its declared length (a chunked one, its route's
/// whole limit) before a byte is read, and gives it back when it ends; a request that does not
/// fit is answered 503 with `Retry-After`, unread.
final class LargeBodyBudget: Sendable {
    /// One client may hold at most this fraction of the budget (a quarter): admitted clients are
    /// trusted (an editor), but one of them — a stolen session, or a browser retrying in a loop —
    /// must still leave room for three others. A client holding nothing may always start one
    /// body, so a share smaller than the largest body never refuses a single upload.
    static let clientShareDivisor = 4

    enum Reservation: Equatable {
        case reserved
        /// The whole budget is in use.
        case budgetFull
        /// This client already holds its share.
        case clientShareFull
    }

    let limit: Int
    var clientShare: Int { limit / Self.clientShareDivisor }
    private let state = Mutex(Holdings())

    private struct Holdings {
        var total = 0
        var byClient: [String: Int] = [:]
    }

    init(limit: Int) {
        self.limit = limit
    }

    /// Reserves `bytes` for `client` if they fit within the budget and the client's share.
    func reserve(_ bytes: Int, for client: String) -> Reservation {
        state.withLock { holdings in
            guard holdings.total + bytes <= limit else { return .budgetFull }
            let held = holdings.byClient[client, default: 0]
            guard held == 0 || held + bytes <= clientShare else { return .clientShareFull }
            holdings.total += bytes
            holdings.byClient[client] = held + bytes
            return .reserved
        }
    }

    func release(_ bytes: Int, for client: String) {
        guard bytes > 0 else { return }
        state.withLock { holdings in
            holdings.total -= bytes
            let left = holdings.byClient[client, default: 0] - bytes
            holdings.byClient[client] = left > 0 ? left : nil
        }
    }
}
