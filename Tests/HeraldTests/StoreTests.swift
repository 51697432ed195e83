import Foundation
import TestSupport
import Testing

@testable import Herald

@Suite struct StoreTests {
    private func incoming(_ id: String, title: String = "A title", at time: Int = 1_700_000_000) -> IncomingArticle {
        IncomingArticle(
            sourceID: id, title: title, summary: "Summary of \(id).", body: "First paragraph.\n\nSecond.",
            author: "Ada Writer", section: "science", publishedAt: time)
    }

    private func withDatabase(_ body: (Database, String) throws -> Void) throws {
        let directory = try makeTemporaryDirectory()
        let made = try TestDatabase.make(in: directory)
        defer {
            made.drop()
            removeDirectory(directory)
        }
        let database = try Database(backend: made.backend)
        try body(database, directory)
        database.close()
    }

    @Test func migratesAnEmptyDatabaseToTheLatestVersionOnce() throws {
        try withDatabase { database, directory in
            #expect(try database.schemaVersion() == Migrations.latestVersion)
            // Reopening an up-to-date database runs nothing again.
            let again = try Database(backend: database.backend)
            #expect(try again.schemaVersion() == Migrations.latestVersion)
            #expect(try again.integrityCheck() == "ok")
        }
    }

    @Test(.enabled(if: !TestDatabase.isPostgres, "SQLite settings"))
    func connectionsUseWALAndForeignKeys() throws {
        try withDatabase { database, _ in
            let pragmas = try database.withConnection { connection throws -> [Int: String] in
                [
                    0: try connection.query("PRAGMA journal_mode").first?.string(0) ?? "",
                    1: String(try connection.query("PRAGMA foreign_keys").first?.int(0) ?? -1),
                    2: String(try connection.query("PRAGMA synchronous").first?.int(0) ?? -1),
                    3: String(try connection.query("PRAGMA busy_timeout").first?.int(0) ?? -1),
                ]
            }
            #expect(pragmas[0] == "wal")
            #expect(pragmas[1] == "1")
            #expect(pragmas[2] == "1")  // NORMAL
            #expect(pragmas[3] == "5000")
        }
    }

    @Test func importIsIdempotentAndUpdatesInPlace() throws {
        try withDatabase { database, _ in
            let store = ArticleStore(database: database)
            let now = Clock.system.now()
            #expect(
                try store.importArticles([incoming("a"), incoming("b", title: "Other")], now: now) == [.added, .added])
            #expect(
                try store.importArticles([incoming("a"), incoming("b", title: "Other")], now: now)
                    == [.unchanged, .unchanged])
            #expect(try store.importArticles([incoming("a", title: "A new title")], now: now) == [.updated])
            let page = try store.page(1, size: 10)
            #expect(page.articles.count == 2)
            #expect(page.articles.contains { $0.title == "A new title" && $0.slug == "a-title" })
        }
    }

    @Test func slugsStayUnique() throws {
        try withDatabase { database, _ in
            let store = ArticleStore(database: database)
            _ = try store.importArticles(
                (1...3).map { incoming("id\($0)", title: "Same Title!") }, now: Clock.system.now())
            let slugs = try store.page(1, size: 10).articles.map(\.slug).sorted()
            #expect(slugs == ["same-title", "same-title-2", "same-title-3"])
        }
    }

    @Test func slugsFromTitles() {
        #expect(Slug.make(from: "Q&A: Why the \"quiet\" economy matters") == "q-a-why-the-quiet-economy-matters")
        #expect(Slug.make(from: "Zoë Márquez’s café opens") == "zoe-marquezs-cafe-opens")
        #expect(Slug.make(from: "北京新闻") == "北京新闻")
        #expect((Slug.make(from: String(repeating: "long ", count: 50)) ?? "").utf8.count <= Slug.maximumBytes)
    }

    @Test func aFailedWriteLeavesNothingBehind() throws {
        try withDatabase { database, _ in
            struct Abort: Error {}
            #expect(throws: Abort.self) {
                try database.write { connection in
                    try connection.query(
                        "INSERT INTO articles (slug, title, summary, body, author, published_at, updated_at) VALUES ('x','x','x','x','x',1,1)"
                    )
                    throw Abort()
                }
            }
            let empty = try ArticleStore(database: database).isEmpty()
            #expect(empty)
        }
    }

    @Test func paginationReportsOlderPagesWithoutCounting() throws {
        try withDatabase { database, _ in
            let store = ArticleStore(database: database)
            _ = try store.importArticles(
                (1...5).map { incoming("n\($0)", title: "Story \($0)", at: 1000 + $0) }, now: Clock.system.now())
            let first = try store.page(1, size: 2)
            #expect(first.articles.map(\.title) == ["Story 5", "Story 4"])
            #expect(first.hasOlder)
            let last = try store.page(3, size: 2)
            #expect(last.articles.map(\.title) == ["Story 1"])
            #expect(!last.hasOlder)
            #expect(try store.page(4, size: 2).articles.isEmpty)
        }
    }

    @Test func concurrentReadersWithAWriter() throws {
        try withDatabase { database, _ in
            let store = ArticleStore(database: database)
            _ = try store.importArticles(
                (1...30).map { incoming("base\($0)", title: "Base \($0)", at: $0) }, now: Clock.system.now())
            let failures = Failures()
            DispatchQueue.concurrentPerform(iterations: 6) { worker in
                for round in 0..<40 {
                    do {
                        if worker == 0 {
                            _ = try store.importArticles(
                                [incoming("w\(round)", title: "Written \(round)", at: 100 + round)],
                                now: Clock.system.now())
                        } else {
                            let page = try store.page(1, size: 20)
                            if page.articles.count != 20 { failures.add("short page") }
                        }
                    } catch {
                        failures.add("\(error)")
                    }
                }
            }
            #expect(failures.all.isEmpty)
            #expect(try store.page(1, size: 100).articles.count == 70)
        }
    }
}

/// Collects problems from many threads.
final class Failures: @unchecked Sendable {
    private let lock = NSLock()
    private var items: [String] = []
    func add(_ item: String) { lock.withLock { items.append(item) } }
    var all: [String] { lock.withLock { items } }
}

@Suite(.enabled(if: !TestDatabase.isPostgres, "works on the SQLite file directly")) struct MigrationTests {
    @Test(arguments: 0..<Migrations.latestVersion)
    func upgradesFromEachEarlierVersionKeepingData(from version: Int) throws {
        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let path = directory + "/herald.sqlite3"
        do {
            let old = try SQLiteConnection(path: path)
            try Migrations.apply(to: old, dialect: .sqlite, upTo: version)
            if version >= 1 {
                try old.query(
                    """
                    INSERT INTO articles (slug, title, summary, body, author, published_at, updated_at)
                    VALUES ('kept', 'Kept', 's', 'b', 'a', 1, 1)
                    """)
            }
        }
        let database = try Database(path: path)
        #expect(try database.schemaVersion() == Migrations.latestVersion)
        #expect(try database.integrityCheck() == "ok")
        if version >= 1 {
            #expect(try ArticleStore(database: database).article(slug: "kept")?.title == "Kept")
        }
    }
}

@Suite(.enabled(if: !TestDatabase.isPostgres, "works on the SQLite file directly")) struct StoreFailureTests {
    @Test func aLockedDatabaseAnswers503AndRecovers() throws {
        let app = try TestApp(server: false) { $0.databaseBusyTimeoutMilliseconds = 100 }
        let slug = try app.firstSlug()
        let reader = app.client()
        _ = try reader.register("patient")
        let token = try reader.formToken(on: "/articles/\(slug)")
        // Another process holds the write lock.
        let blocker = try SQLiteConnection(path: app.dataDirectory + "/herald.sqlite3")
        try blocker.execute("BEGIN IMMEDIATE")
        let busy = try reader.post("/articles/\(slug)/like", form: [("csrf_token", token)])
        #expect(busy.status == 503)
        #expect(busy["Retry-After"] != nil)
        #expect(busy.text.contains("try again"))
        // Reading pages still works meanwhile (WAL readers never wait for the writer).
        #expect(try reader.get("/articles/\(slug)").status == 200)
        try blocker.execute("ROLLBACK")
        #expect(try reader.post("/articles/\(slug)/like", form: [("csrf_token", token)]).status == 303)
        #expect(try reader.likeCount(slug) == 1)
    }
}
