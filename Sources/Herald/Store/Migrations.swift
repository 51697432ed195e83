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
        """,
        // 2: accounts, sessions (only the token's hash is stored), throttling events
        """
        CREATE TABLE users (
            id INTEGER PRIMARY KEY,
            username TEXT NOT NULL,
            username_key TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE TABLE sessions (
            token_hash BLOB PRIMARY KEY,
            user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at INTEGER NOT NULL,
            last_seen_at INTEGER NOT NULL
        );
        CREATE INDEX sessions_user ON sessions (user_id);
        CREATE TABLE throttle_events (
            scope TEXT NOT NULL,
            at INTEGER NOT NULL
        );
        CREATE INDEX throttle_events_scope ON throttle_events (scope, at);
        """,
        // 3: likes (the article's like_count is kept equal to its rows in the same transaction),
        // and the ids of performed intents (replay protection)
        """
        CREATE TABLE likes (
            user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
            liked_at INTEGER NOT NULL,
            PRIMARY KEY (user_id, article_id)
        );
        CREATE INDEX likes_by_user ON likes (user_id, liked_at DESC);
        CREATE INDEX likes_by_article ON likes (article_id);
        CREATE TABLE performed_intents (
            id TEXT PRIMARY KEY,
            expires_at INTEGER NOT NULL
        );
        CREATE INDEX performed_intents_expiry ON performed_intents (expires_at);
        """,
        // 4: comments (the article's comment_count is kept equal to its rows)
        """
        CREATE TABLE comments (
            id INTEGER PRIMARY KEY,
            article_id INTEGER NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
            user_id INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            body TEXT NOT NULL,
            created_at INTEGER NOT NULL
        );
        CREATE INDEX comments_by_article ON comments (article_id, id);
        """,
    ]

    static var latestVersion: Int { steps.count }

    /// Brings the schema to `target` (the latest by default; tests stop earlier to
    /// build databases as older versions of Herald left them).
    static func apply(to connection: SQLiteConnection, upTo target: Int = latestVersion) throws {
        let current = try connection.query("PRAGMA user_version").first?.int(0) ?? 0
        guard current < target else { return }
        for version in (current + 1)...target {
            try connection.transaction {
                try connection.execute(steps[version - 1])
                // Pragmas cannot take bound parameters; `version` is our own integer.
                try connection.execute("PRAGMA user_version = \(version)")
            }
        }
    }
}
