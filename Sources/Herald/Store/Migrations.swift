import Foundation

/// The schema, as numbered steps, the same for SQLite and PostgreSQL but for three column
/// types: `{pk}` (an integer key the database assigns), `{int}` (64-bit integers) and `{blob}`.
/// Each step runs in its own transaction, with the version it reaches, so a crash mid-migration
/// leaves the previous version. SQLite keeps the version in `PRAGMA user_version`; PostgreSQL in
/// a `herald_schema` table, under an advisory lock so several servers starting at once migrate once.
enum Migrations {
    enum Dialect { case sqlite, postgres }

    private static let steps: [String] = [
        // 1: articles
        """
        CREATE TABLE articles (
            id {pk},
            slug TEXT NOT NULL UNIQUE,
            source_id TEXT UNIQUE,
            title TEXT NOT NULL,
            summary TEXT NOT NULL,
            body TEXT NOT NULL,
            author TEXT NOT NULL,
            section TEXT NOT NULL DEFAULT '',
            published_at {int} NOT NULL,
            updated_at {int} NOT NULL,
            like_count {int} NOT NULL DEFAULT 0 CHECK (like_count >= 0),
            comment_count {int} NOT NULL DEFAULT 0 CHECK (comment_count >= 0)
        );
        CREATE INDEX articles_newest ON articles (published_at DESC, id DESC);
        """,
        // 2: accounts, sessions (only the token's hash is stored), throttling events
        """
        CREATE TABLE users (
            id {pk},
            username TEXT NOT NULL,
            username_key TEXT NOT NULL UNIQUE,
            password_hash TEXT NOT NULL,
            created_at {int} NOT NULL
        );
        CREATE TABLE sessions (
            token_hash {blob} PRIMARY KEY,
            user_id {int} NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at {int} NOT NULL,
            last_seen_at {int} NOT NULL
        );
        CREATE INDEX sessions_user ON sessions (user_id);
        CREATE TABLE throttle_events (
            scope TEXT NOT NULL,
            at {int} NOT NULL
        );
        CREATE INDEX throttle_events_scope ON throttle_events (scope, at);
        """,
        // 3: likes (the article's like_count is kept equal to its rows in the same transaction),
        // and the ids of performed intents (replay protection)
        """
        CREATE TABLE likes (
            user_id {int} NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            article_id {int} NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
            liked_at {int} NOT NULL,
            PRIMARY KEY (user_id, article_id)
        );
        CREATE INDEX likes_by_user ON likes (user_id, liked_at DESC);
        CREATE INDEX likes_by_article ON likes (article_id);
        CREATE TABLE performed_intents (
            id TEXT PRIMARY KEY,
            expires_at {int} NOT NULL
        );
        CREATE INDEX performed_intents_expiry ON performed_intents (expires_at);
        """,
        // 4: comments (the article's comment_count is kept equal to its rows)
        """
        CREATE TABLE comments (
            id {pk},
            article_id {int} NOT NULL REFERENCES articles (id) ON DELETE CASCADE,
            user_id {int} NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            body TEXT NOT NULL,
            created_at {int} NOT NULL
        );
        CREATE INDEX comments_by_article ON comments (article_id, id);
        """,
        // 5: rate-limit events with ids, so a reserved event can be taken back (a login that
        // succeeded); the old throttle events are only minutes of history and are dropped.
        """
        CREATE TABLE rate_limit_events (
            id {pk},
            scope TEXT NOT NULL,
            at {int} NOT NULL
        );
        CREATE INDEX rate_limit_events_scope ON rate_limit_events (scope, at);
        DROP TABLE throttle_events;
        """,
        // 6: roles (a bit set: 1 editor, 2 moderator, 4 admin), an optional unique email, and
        // password-reset tokens (only their SHA-256 is stored; single use, one hour); comments by
        // author, for profiles, exports and account deletion.
        """
        ALTER TABLE users ADD COLUMN roles {int} NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN email TEXT;
        CREATE UNIQUE INDEX users_email ON users (email);
        CREATE TABLE password_resets (
            token_hash {blob} PRIMARY KEY,
            user_id {int} NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            created_at {int} NOT NULL,
            expires_at {int} NOT NULL
        );
        CREATE INDEX password_resets_user ON password_resets (user_id);
        CREATE INDEX comments_by_user ON comments (user_id, id);
        """,
        // 7: the newsroom. Articles are drafts or set to publish at `published_at` (scheduled until
        // then); they record the account that wrote them, their rendered Markdown, when they were
        // revised after publishing, their original (imports), a lead image and a section by slug.
        // Images live in the database so every server can serve them. Forms too large for the
        // intent cookie are parked, single use, for at most a day.
        """
        CREATE TABLE sections (
            slug TEXT PRIMARY KEY,
            name TEXT NOT NULL,
            name_key TEXT NOT NULL UNIQUE
        );
        ALTER TABLE articles ADD COLUMN section_slug TEXT NOT NULL DEFAULT '';
        ALTER TABLE articles ADD COLUMN draft {int} NOT NULL DEFAULT 0;
        ALTER TABLE articles ADD COLUMN slug_fixed {int} NOT NULL DEFAULT 1;
        ALTER TABLE articles ADD COLUMN author_id {int} REFERENCES users (id) ON DELETE SET NULL;
        ALTER TABLE articles ADD COLUMN body_html TEXT;
        ALTER TABLE articles ADD COLUMN revised_at {int};
        ALTER TABLE articles ADD COLUMN original_url TEXT NOT NULL DEFAULT '';
        ALTER TABLE articles ADD COLUMN image_name TEXT NOT NULL DEFAULT '';
        ALTER TABLE articles ADD COLUMN image_width {int} NOT NULL DEFAULT 0;
        ALTER TABLE articles ADD COLUMN image_height {int} NOT NULL DEFAULT 0;
        ALTER TABLE articles ADD COLUMN image_alt TEXT NOT NULL DEFAULT '';
        CREATE INDEX articles_by_section ON articles (section_slug, published_at DESC, id DESC);
        CREATE INDEX articles_changed ON articles (updated_at DESC, id DESC);
        CREATE INDEX articles_image ON articles (image_name);
        CREATE TABLE media (
            name TEXT PRIMARY KEY,
            content_type TEXT NOT NULL,
            width {int} NOT NULL,
            height {int} NOT NULL,
            bytes {blob} NOT NULL,
            created_at {int} NOT NULL
        );
        CREATE TABLE parked_forms (
            id TEXT PRIMARY KEY,
            owner TEXT NOT NULL,
            fields TEXT NOT NULL,
            file {blob},
            size {int} NOT NULL,
            expires_at {int} NOT NULL
        );
        CREATE INDEX parked_forms_owner ON parked_forms (owner);
        CREATE INDEX parked_forms_expiry ON parked_forms (expires_at);
        """,
        // 8: moderation. Hidden comments keep their row (and place) but leave every count; a
        // ban marks the account's sessions suspended: dead at once, and the next request that
        // presents one is told why (403) before the session is deleted. Reports count once per reader and
        // comment; every moderation action is recorded with who did it.
        """
        ALTER TABLE comments ADD COLUMN hidden {int} NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN banned {int} NOT NULL DEFAULT 0;
        ALTER TABLE sessions ADD COLUMN suspended {int} NOT NULL DEFAULT 0;
        CREATE TABLE comment_reports (
            comment_id {int} NOT NULL REFERENCES comments (id) ON DELETE CASCADE,
            user_id {int} NOT NULL REFERENCES users (id) ON DELETE CASCADE,
            reason TEXT NOT NULL,
            created_at {int} NOT NULL,
            is_open {int} NOT NULL DEFAULT 1,
            PRIMARY KEY (comment_id, user_id)
        );
        CREATE INDEX comment_reports_open ON comment_reports (is_open, comment_id);
        CREATE INDEX comment_reports_by_user ON comment_reports (user_id);
        CREATE TABLE moderation_actions (
            id {pk},
            actor TEXT NOT NULL,
            action TEXT NOT NULL,
            target TEXT NOT NULL,
            note TEXT NOT NULL,
            at {int} NOT NULL
        );
        """,
        // 9: conversations. A reply names the comment it answered (`parent_id`, not a foreign key:
        // a reply outlives a deleted parent, shown under "Deleted comment"), its thread (the
        // top-level comment's id, what pages of comments count) and the parent's author, whose
        // unread replies are also counted on their account (read with the session: no query more
        // per page). Comments record when they were edited. Comment ids come from a counter that
        // never goes back: SQLite would give a deleted newest comment's id to the next one, and a
        // reply form still open under the deleted comment would then answer a stranger's.
        """
        ALTER TABLE comments ADD COLUMN parent_id {int};
        ALTER TABLE comments ADD COLUMN thread_id {int};
        ALTER TABLE comments ADD COLUMN reply_to_user {int};
        ALTER TABLE comments ADD COLUMN reply_read {int} NOT NULL DEFAULT 0;
        ALTER TABLE comments ADD COLUMN edited_at {int};
        UPDATE comments SET thread_id = id;
        CREATE INDEX comments_threads ON comments (article_id, thread_id, id);
        CREATE INDEX comments_replies_to ON comments (reply_to_user, id);
        ALTER TABLE users ADD COLUMN unread_replies {int} NOT NULL DEFAULT 0;
        CREATE TABLE id_counters (
            name TEXT PRIMARY KEY,
            last {int} NOT NULL
        );
        INSERT INTO id_counters (name, last) SELECT 'comments', coalesce(max(id), 0) FROM comments;
        """,
        // 10: search. The index differs by database (`SearchIndex`, made by its backfill): an FTS5
        // trigram table on SQLite, a pg_trgm GIN index on PostgreSQL.
        "",
        // 11: search, faster on SQLite: how many articles hold each trigram (`SearchIndex`).
        "",
        // 12: the moderation queue, most reported first, without counting every open report on
        // each request: a comment's open reports, kept equal to its rows (`comment_reports` with
        // `is_open = 1`) in the transaction that adds or closes one, and an index of only the
        // comments that have some, in the queue's order. The page's reasons are counted from an
        // index that holds them (no row read per report).
        """
        ALTER TABLE comments ADD COLUMN open_reports {int} NOT NULL DEFAULT 0;
        UPDATE comments SET open_reports = (
            SELECT count(*) FROM comment_reports r WHERE r.comment_id = comments.id AND r.is_open = 1)
        WHERE id IN (SELECT comment_id FROM comment_reports WHERE is_open = 1);
        CREATE INDEX comments_reported ON comments (open_reports DESC, id) WHERE open_reports > 0;
        CREATE INDEX comment_reports_reasons ON comment_reports (comment_id, is_open, reason);
        """,
        // 13: a parked form belongs to the browser that parked it (a digest of its random id: only
        // that browser's login takes it), and to one of two pools: small anonymous forms, counted
        // per client address, and files or large forms of accounts, counted per account. Forms
        // parked before this have no browser and are never taken.
        """
        ALTER TABLE parked_forms ADD COLUMN browser TEXT NOT NULL DEFAULT '';
        ALTER TABLE parked_forms ADD COLUMN pool TEXT NOT NULL DEFAULT 'address';
        CREATE INDEX parked_forms_pool ON parked_forms (pool);
        """,
        // 14: email changes waiting for the new address to confirm a mailed link: one per account
        // (a newer request replaces the older), only the token's SHA-256 is stored, single use, a
        // day at most; they go with the account. The new address is not reserved here: the first
        // account to confirm it gets it.
        """
        CREATE TABLE email_changes (
            user_id {int} PRIMARY KEY REFERENCES users (id) ON DELETE CASCADE,
            email TEXT NOT NULL,
            token_hash {blob} NOT NULL UNIQUE,
            created_at {int} NOT NULL,
            expires_at {int} NOT NULL
        );
        """,
        // 15: sign-in links. Only the token's SHA-256 is stored; a link is for 15 minutes and used
        // once (`used_at`); it records the browser that asked (a digest of its id) and, when an
        // action was pending there, that action's signed intent, which travels with the link to
        // whichever browser opens it (performed there only after the reader confirms it).
        """
        CREATE TABLE login_links (
            token_hash {blob} PRIMARY KEY,
            email TEXT NOT NULL,
            browser TEXT NOT NULL,
            intent TEXT,
            created_at {int} NOT NULL,
            expires_at {int} NOT NULL,
            used_at {int}
        );
        CREATE INDEX login_links_expiry ON login_links (expires_at);
        """,
        // 16: mail for replies. An address counts as confirmed (`email_confirmed`) once it opened a
        // mailed link (an email change, a sign-in link); one typed at registration does not. A reader
        // may ask for mail about replies to their comments (`reply_mail`, off by default), from
        // `reply_mail_since` on (older replies are never mailed); `reply_mailed_at` is when their last
        // digest went, so that they get at most one per 15 minutes. A reply's `mailed_at` is when a
        // digest claimed it: claimed in the transaction that marks it, it is mailed once whichever
        // server runs the round.
        """
        ALTER TABLE users ADD COLUMN email_confirmed {int} NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN reply_mail {int} NOT NULL DEFAULT 0;
        ALTER TABLE users ADD COLUMN reply_mail_since {int};
        ALTER TABLE users ADD COLUMN reply_mailed_at {int};
        ALTER TABLE comments ADD COLUMN mailed_at {int};
        CREATE INDEX users_reply_mail ON users (id) WHERE reply_mail = 1;
        CREATE INDEX comments_unmailed_replies ON comments (reply_to_user, id)
            WHERE mailed_at IS NULL AND reply_to_user IS NOT NULL;
        """,
        // 17: slugs in any script. Articles and sections whose title had no ASCII letter got a generic
        // slug (`article-2`, `section`); they get one from their title (`OldSlugs.backfill`), and
        // the old one is kept here so its address answers 301 to the new one. An article's old
        // slug follows the article (its id), a section's names its slug.
        """
        CREATE TABLE article_redirects (
            slug TEXT PRIMARY KEY,
            article_id {int} NOT NULL REFERENCES articles (id) ON DELETE CASCADE
        );
        CREATE INDEX article_redirects_article ON article_redirects (article_id);
        CREATE TABLE section_redirects (
            slug TEXT PRIMARY KEY,
            section_slug TEXT NOT NULL
        );
        """,
        // 18: a ban with a duration: `banned_until` is when it lifts itself (NULL with `banned` = 1:
        // permanent). Nothing rewrites the row at expiry; `User.activeBan(at:)` reads the time.
        // The record keeps each ban's end beside its reason (the note).
        """
        ALTER TABLE users ADD COLUMN banned_until {int};
        ALTER TABLE moderation_actions ADD COLUMN until_at {int};
        """,
        // 19: languages (SPEC, third wave, "Language"): an article's own content language (a BCP 47
        // tag from its feed or its editor; NULL is the site's), and the interface language a reader
        // chose, so that mail sent off any request is written in it (NULL: the site's).
        """
        ALTER TABLE articles ADD COLUMN language TEXT;
        ALTER TABLE users ADD COLUMN language TEXT;
        """,
    ]

    /// Work a step needs that portable SQL alone cannot do, run in the step's transaction after
    /// its SQL.
    private static func backfill(_ version: Int, _ connection: any SQLConnection, _ dialect: Dialect) throws {
        switch version {
        // Sections by slug for the articles already stored (slugs are made in Swift).
        case 7: try SectionStore.backfill(connection)
        case 10: try SearchIndex.create(connection, dialect)
        case 11: try SearchIndex.createTermCounts(connection, dialect)
        case oldSlugsVersion: try OldSlugs.backfill(connection)
        default: break
        }
    }

    static var latestVersion: Int { steps.count }

    /// The step that gave generic slugs their titles' letters (whatever its number after merges).
    static let oldSlugsVersion = steps.firstIndex { $0.contains("CREATE TABLE article_redirects") }.map { $0 + 1 } ?? 0

    static func step(_ version: Int, for dialect: Dialect) -> String {
        let types: [(String, String)] =
            switch dialect {
            case .sqlite: [("{pk}", "INTEGER PRIMARY KEY"), ("{int}", "INTEGER"), ("{blob}", "BLOB")]
            case .postgres:
                [
                    ("{pk}", "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"), ("{int}", "BIGINT"),
                    ("{blob}", "BYTEA"),
                ]
            }
        return types.reduce(steps[version - 1]) { sql, type in sql.replacingOccurrences(of: type.0, with: type.1) }
    }

    static func currentVersion(of connection: any SQLConnection, dialect: Dialect) throws -> Int {
        switch dialect {
        case .sqlite:
            return try connection.query("PRAGMA user_version").first?.int(0) ?? 0
        case .postgres:
            return try connection.query("SELECT coalesce(max(version), 0) FROM herald_schema").first?.int(0) ?? 0
        }
    }

    /// Brings the schema to `target` (the latest by default; tests stop earlier to build
    /// databases as older versions of Herald left them).
    static func apply(to connection: any SQLConnection, dialect: Dialect, upTo target: Int = latestVersion) throws {
        if dialect == .postgres {
            // Under the lock: two servers creating it at once would collide even with IF NOT EXISTS.
            try connection.transaction {
                try connection.query("SELECT pg_advisory_xact_lock(4242)")
                try connection.execute("CREATE TABLE IF NOT EXISTS herald_schema (version BIGINT NOT NULL)")
            }
        }
        let start = try currentVersion(of: connection, dialect: dialect)
        guard start < target else { return }
        for version in (start + 1)...target {
            try connection.transaction {
                if dialect == .postgres { try connection.query("SELECT pg_advisory_xact_lock(4242)") }
                // Another server may have applied it while this one waited for the lock.
                guard try currentVersion(of: connection, dialect: dialect) < version else { return }
                try connection.execute(step(version, for: dialect))
                try backfill(version, connection, dialect)
                switch dialect {
                // Pragmas take no bound parameters; `version` is our own integer.
                case .sqlite: try connection.execute("PRAGMA user_version = \(version)")
                case .postgres:
                    try connection.query("INSERT INTO herald_schema (version) VALUES (?)", [.integer(Int64(version))])
                }
            }
        }
    }
}
