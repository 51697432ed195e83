import HTTP
import Synchronization

/// The front page as anonymous readers see it, rendered once and served as bytes until the
/// database changes (any committed write here) or a second passes (writes by another process,
/// such as `herald import`, or another server). Anonymous front pages carry no form and no
/// per-visitor data, so one rendering serves everyone; readers who are logged in, or have a
/// message to see, always get a fresh page.
final class FrontPageCache: Sendable {
    static let cachedPages = 10
    static let maximumAgeMicroseconds: Int64 = 1_000_000

    private struct Entry {
        let writeCount: Int
        let renderedAt: Int64
        let response: Response
    }

    private let database: Database
    private let entries = Mutex<[Int: Entry]>([:])

    init(database: Database) {
        self.database = database
    }

    func response(page: Int, render: () throws -> Response) rethrows -> Response {
        guard page <= Self.cachedPages else { return try render() }
        let writeCount = database.writeCount
        let now = monotonicMicroseconds()
        if let entry = entries.withLock({ $0[page] }), entry.writeCount == writeCount,
            now - entry.renderedAt < Self.maximumAgeMicroseconds
        {
            return entry.response
        }
        let response = try render()
        if response.status == .ok {
            entries.withLock { $0[page] = Entry(writeCount: writeCount, renderedAt: now, response: response) }
        }
        return response
    }
}
