import Foundation
import TestSupport
import Testing

@testable import Herald

/// Operations (issue #21), as `swift test` sees them on either store: `herald backup` of a site
/// that is serving (SQLite: a checked copy, never over an existing file; PostgreSQL: pg_dump's
/// job, exit 2), and `herald --version`. The restore under a like storm, metrics, logs, systemd
/// and nginx are in Tests/ops/ and Tests/cluster/ (scripts/ops-test.sh).
@Suite struct OperationsTests {
    @Test func backupCopiesTheServingSiteOrPointsToPgDump() throws {
        let site = try TestApp()
        let reader = site.client()
        #expect(try reader.register("backedup").status == 303)
        let slug = try site.firstSlug()
        #expect(try reader.submitLikeForm(slug).status == 303)

        let directory = try makeTemporaryDirectory()
        defer { removeDirectory(directory) }
        let file = directory + "/copy.sqlite3"
        let run = try runHerald(["backup"] + site.storeArguments + [file])

        if case .postgres = site.app.database.backend {
            #expect(run.status == 2)
            #expect(run.err.contains("pg_dump"))
            #expect(!FileManager.default.fileExists(atPath: file))
            return
        }
        #expect(run.status == 0, "\(run.err)")
        let report = try #require(
            firstMatch(#"^backed up .+ to (.+): (\d+\.\d) MB in \d+\.\d\d s, integrity ok\n$"#, in: run.out),
            "stdout: \(run.out)")
        #expect(report == file)
        let copy = try SQLiteConnection(path: file, readOnly: true)
        #expect(try copy.query("PRAGMA integrity_check").first?.string(0) == "ok")
        #expect(try copy.query("SELECT count(*) FROM articles").first?.int(0) == 56)
        let liked = try copy.query(
            "SELECT count(*) FROM likes JOIN users ON users.id = likes.user_id JOIN articles ON articles.id = likes.article_id "
                + "WHERE users.username = 'backedup' AND articles.slug = ?", [.text(slug)])
        #expect(liked.first?.int(0) == 1)
        let mode = try FileManager.default.attributesOfItem(atPath: file)[.posixPermissions] as? Int
        #expect(mode == 0o600)

        // An existing file is never overwritten: exit 1, its bytes as they were.
        let before = FileManager.default.contents(atPath: file)
        #expect(try reader.submitLikeForm(slug).status == 303)  // the database changes meanwhile
        let again = try runHerald(["backup"] + site.storeArguments + [file])
        #expect(again.status == 1)
        #expect(again.err.contains("already exists"))
        #expect(again.out.isEmpty)
        #expect(FileManager.default.contents(atPath: file) == before)
    }

    @Test func versionNamesTheReleaseAndTheCommit() throws {
        for argument in ["--version", "version"] {
            let run = try runHerald([argument])
            #expect(run.status == 0)
            #expect(run.err.isEmpty)
            // The same build as this test bundle: the binary says what Version.description says.
            #expect(run.out == Version.description + "\n")
            #expect(
                firstMatch(#"^(herald \d+\.\d+\.\d+ \(commit [0-9a-f]{12}(\+changes)?\))\n$"#, in: run.out) != nil,
                "\(run.out)")
        }
    }
}
