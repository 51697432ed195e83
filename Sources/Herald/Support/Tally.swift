import Synchronization

/// Counts events by a label chosen by the code (an action's name, a reason), for metrics.
final class Tally: Sendable {
    private let counts = Mutex<[String: Int]>([:])

    func add(_ label: String) {
        counts.withLock { $0[label, default: 0] += 1 }
    }

    var snapshot: [String: Int] { counts.withLock { $0 } }
}
