import Foundation
import Synchronization
import TestSupport
import Testing

@testable import Herald

#if canImport(Glibc)
    import Glibc
#endif

/// kill -9 in the middle of a like storm loses nothing that was acknowledged.
@Suite(.enabled(if: !TestDatabase.isPostgres, "works on the SQLite file directly")) struct CrashSafetyTests {
    @Test func acknowledgedLikesSurviveSIGKILL() throws {
        let data = try makeTemporaryDirectory()
        defer { removeDirectory(data) }
        var acknowledged: Set<String> = []  // "username slug"
        var slugs: [String] = []

        for round in 0..<3 {
            let server = try ServerProcess(data: data)
            if slugs.isEmpty {
                let page = try TestClient(port: server.port).get("/").text
                slugs = matches(of: #"href="/articles/([^"]+)""#, in: page)
            }
            let readers = try (0..<4).map { index -> TestClient in
                let client = TestClient(port: server.port)
                client.defaultHeaders = [("Sec-Fetch-Site", "same-origin")]
                let name = "r\(round)x\(index)"
                _ = try client.register(name)
                return client
            }
            let acks = Mutex<[String]>([])
            let stop = Atomic<Bool>(false)
            let port = server.port
            let boxes = readers.map { UncheckedBox($0) }
            let threads = (0..<readers.count).map { index in
                Thread { [slugs] in
                    let client = boxes[index].value
                    for slug in slugs where !stop.load(ordering: .relaxed) {
                        guard let response = try? client.post("/articles/\(slug)/like", form: []) else { return }
                        if response.status == 303 { acks.withLock { $0.append("r\(round)x\(index) \(slug)") } }
                    }
                    _ = port
                }
            }
            threads.forEach { $0.start() }
            usleep(150_000)  // mid-load
            server.kill(SIGKILL)
            stop.store(true, ordering: .relaxed)
            usleep(100_000)
            acknowledged.formUnion(acks.withLock { $0 })
        }
        #expect(!acknowledged.isEmpty)

        // Restarted on the same data: every acknowledged like is there, counts equal rows.
        let restarted = try ServerProcess(data: data)
        #expect(try TestClient(port: restarted.port).get("/healthz").status == 200)
        restarted.kill(SIGTERM)
        let database = try Database(path: data + "/herald.sqlite3")
        defer { database.close() }
        #expect(try database.integrityCheck() == "ok")
        let stored = try database.withConnection { connection in
            try connection.query(
                "SELECT u.username || ' ' || a.slug FROM likes l JOIN users u ON u.id = l.user_id JOIN articles a ON a.id = l.article_id"
            ).map { $0.string(0) }
        }
        let missing = acknowledged.subtracting(stored)
        #expect(missing.isEmpty, "acknowledged but lost: \(missing.prefix(5))")
        let mismatched = try database.withConnection { connection in
            try connection.query(
                "SELECT count(*) FROM articles a WHERE like_count != (SELECT count(*) FROM likes l WHERE l.article_id = a.id)"
            ).first?.int(0) ?? -1
        }
        #expect(mismatched == 0)
    }
}
