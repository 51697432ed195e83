import Synchronization

/// Bounds the memory held by bodies above the server's own limit.
///
/// A route may accept a body far larger than the server's default (an image upload), and its
/// body is buffered before any handler — or login check — runs. Without a bound, every connection
/// a client may open could hold that much. Each such request reserves its declared length (a
/// chunked one, its route's whole limit) before a byte is read, and gives it back when it ends;
/// a request that does not fit is answered 503 with `Retry-After`, unread.
final class LargeBodyBudget: Sendable {
    let limit: Int
    private let inUse = Atomic<Int>(0)

    init(limit: Int) {
        self.limit = limit
    }

    /// Reserves `bytes` if they fit within the budget.
    func reserve(_ bytes: Int) -> Bool {
        var current = inUse.load(ordering: .relaxed)
        while true {
            guard current + bytes <= limit else { return false }
            let (exchanged, original) = inUse.compareExchange(
                expected: current, desired: current + bytes, ordering: .acquiringAndReleasing)
            if exchanged { return true }
            current = original
        }
    }

    func release(_ bytes: Int) {
        if bytes > 0 { inUse.subtract(bytes, ordering: .acquiringAndReleasing) }
    }

    var bytesInUse: Int { inUse.load(ordering: .acquiring) }
}
