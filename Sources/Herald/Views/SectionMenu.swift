import HTTP
import Synchronization
import TextSupport

/// The sections listed in every page's header: those with a published article. Read again when
/// this server writes, or after a second (another server's writes; a scheduled article whose time
/// has come), the same rule as the page cache, so a cached page and its header agree.
final class SectionMenu: Sendable {
    private struct Snapshot {
        let writeCount: Int
        let readAt: Int64
        let sections: [Section]
    }

    private let store: SectionStore
    private let database: Database
    private let clock: Clock
    private let snapshot = Mutex<Snapshot?>(nil)

    init(store: SectionStore, database: Database, clock: Clock) {
        self.store = store
        self.database = database
        self.clock = clock
    }

    /// The sections, by name; on a database error, none (the page is still served).
    var sections: [Section] {
        let writeCount = database.writeCount
        let now = monotonicMicroseconds()
        if let current = snapshot.withLock({ $0 }), current.writeCount == writeCount,
            now - current.readAt < PageCache.maximumAgeMicroseconds
        {
            return current.sections
        }
        let sections = (try? store.sectionsWithPublishedArticles(now: clock.now())) ?? []
        snapshot.withLock { $0 = Snapshot(writeCount: writeCount, readAt: now, sections: sections) }
        return sections
    }
}
