/// The full-text index behind `/search`, one per database, both finding words in any script as
/// substrings (Chinese and Japanese have no spaces between words):
///
/// - SQLite: an FTS5 table with the `trigram` tokenizer over title, summary and body, an external
///   content table on `articles` kept in step by triggers. The update trigger fires only when the
///   text changes (`UPDATE OF title, summary, body`), so likes and comment counts never touch it.
/// - PostgreSQL: a `pg_trgm` GIN index on the lower-cased text, used by `LIKE '%word%'`.
///
/// Trigram indexes answer words of three characters or more; shorter words (two-character
/// Chinese words, "AI") are matched by scanning the rows the longer words left (`SearchStore`).
enum SearchIndex {
    static func create(_ connection: any SQLConnection, _ dialect: Migrations.Dialect) throws {
        switch dialect {
        case .sqlite:
            try connection.execute(
                """
                CREATE VIRTUAL TABLE articles_search USING fts5(
                    title, summary, body, content='articles', content_rowid='id', tokenize='trigram');
                CREATE TRIGGER articles_search_insert AFTER INSERT ON articles BEGIN
                    INSERT INTO articles_search (rowid, title, summary, body)
                    VALUES (new.id, new.title, new.summary, new.body);
                END;
                CREATE TRIGGER articles_search_delete AFTER DELETE ON articles BEGIN
                    INSERT INTO articles_search (articles_search, rowid, title, summary, body)
                    VALUES ('delete', old.id, old.title, old.summary, old.body);
                END;
                CREATE TRIGGER articles_search_update AFTER UPDATE OF title, summary, body ON articles BEGIN
                    INSERT INTO articles_search (articles_search, rowid, title, summary, body)
                    VALUES ('delete', old.id, old.title, old.summary, old.body);
                    INSERT INTO articles_search (rowid, title, summary, body)
                    VALUES (new.id, new.title, new.summary, new.body);
                END;
                INSERT INTO articles_search (articles_search) VALUES ('rebuild');
                """)
        case .postgres:
            try connection.execute(
                """
                CREATE EXTENSION IF NOT EXISTS pg_trgm;
                CREATE INDEX articles_search ON articles
                    USING gin (lower(title || ' ' || summary || ' ' || body) gin_trgm_ops);
                """)
        }
    }

    /// SQLite: `articles_search_terms`, FTS5's own view of the index (no storage of its own): how
    /// many articles hold each trigram, so a query can start from its rarest one.
    static func createTermCounts(_ connection: any SQLConnection, _ dialect: Migrations.Dialect) throws {
        guard dialect == .sqlite else { return }
        try connection.execute("CREATE VIRTUAL TABLE articles_search_terms USING fts5vocab(articles_search, 'row');")
    }
}
