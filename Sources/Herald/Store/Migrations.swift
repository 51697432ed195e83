/// The schema, as numbered steps. `PRAGMA user_version` records the last step applied;
/// each step runs in its own transaction, so a crash mid-migration leaves the previous version.
///
/// The SQL stays portable (no SQLite-only types beyond INTEGER PRIMARY KEY) so that a
/// PostgreSQL store can follow the same steps.
enum Migrations {
    static let steps: [String] = [
        // 1: articles
        """
        CREATE TABLE articles (
            id INTEGER PRIMARY KEY,
            slug TEXT NOT NULL UNIQUE,
            source_id TEXT UNIQUE,
            title TEXT NOT NULL,
            summary TEXT NOT NULL,
            body TEXT NOT NULL,
            author TEXT NOT NULL,
            section TEXT NOT NULL DEFAULT '',
            published_at INTEGER NOT NULL,
            updated_at INTEGER NOT NULL,
            like_count INTEGER NOT NULL DEFAULT 0 CHECK (like_count >= 0),
            comment_count INTEGER NOT NULL DEFAULT 0 CHECK (comment_count >= 0)
        );
        CREATE INDEX articles_newest ON articles (published_at DESC, id DESC);
        """
    ]

    static var latestVersion: Int { steps.count }

    static func apply(to connection: SQLiteConnection) throws {
        let current = try connection.query("PRAGMA user_version").first?.int(0) ?? 0
        guard current < steps.count else { return }
        for version in (current + 1)...steps.count {
            try connection.transaction {
                try connection.execute(steps[version - 1])
                // Pragmas cannot take bound parameters; `version` is our own integer.
                try connection.execute("PRAGMA user_version = \(version)")
            }
        }
    }
}
