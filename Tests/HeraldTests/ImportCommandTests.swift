import Foundation
import TestSupport
import Testing

@testable import Herald

/// `herald import` as a user runs it: counts printed, re-imports idempotent, a broken
/// file named with its reason and leaving nothing behind, stdin, exit status.
@Suite(.enabled(if: !TestDatabase.isPostgres, "works on the SQLite file directly")) struct ImportCommandTests {
    static let feeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Feeds").path

    private func run(_ arguments: [String], stdin: String? = nil) throws -> (status: Int32, out: String, err: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExecutableTests.binary)
        process.arguments = arguments
        let out = Pipe()
        let err = Pipe()
        process.standardOutput = out
        process.standardError = err
        let input = Pipe()
        process.standardInput = input
        try process.run()
        if let stdin { input.fileHandleForWriting.write(Data(stdin.utf8)) }
        try input.fileHandleForWriting.close()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output, errors)
    }

    private func articleCount(_ data: String) throws -> Int {
        let database = try Database(path: data + "/herald.sqlite3")
        defer { database.close() }
        return try ArticleStore(database: database).page(1, size: 10_000).articles.count
    }

    @Test func importsEachFormatAndIsIdempotent() throws {
        let data = try makeTemporaryDirectory()
        defer { removeDirectory(data) }
        let files = ["atom.xml", "rss.xml", "feed-1.1.json"].map { Self.feeds + "/" + $0 }
        let first = try run(["import", "--data", data] + files)
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out.contains("atom.xml: 3 added, 0 updated, 0 skipped"))
        let added = try articleCount(data)
        #expect(added > 3)
        let again = try run(["import", "--data", data] + files)
        #expect(again.status == 0)
        #expect(again.out.contains("atom.xml: 0 added, 0 updated, 3 skipped"))
        #expect(try articleCount(data) == added)
    }

    @Test func aBrokenFileIsNamedAndLeavesNothing() throws {
        let data = try makeTemporaryDirectory()
        defer { removeDirectory(data) }
        let broken = Self.feeds + "/broken-rss-no-title.xml"
        let result = try run(["import", "--data", data, broken, Self.feeds + "/atom.xml"])
        #expect(result.status == 1)
        #expect(result.err.contains("broken-rss-no-title.xml"))
        #expect(result.err.contains("no title"))
        // The good file still went in; nothing from the broken one did.
        #expect(try articleCount(data) == 3)
        for name in ["broken-truncated.xml", "broken-bad-date.json", "broken-not-a-feed.json", "broken-xxe.xml"] {
            let outcome = try run(["import", "--data", data, Self.feeds + "/" + name])
            #expect(outcome.status == 1, "\(name)")
            #expect(outcome.err.contains(name), "\(name): \(outcome.err)")
        }
        #expect(try articleCount(data) == 3)
        #expect(try run(["import", "--data", data, "/nonexistent/feed.xml"]).status == 1)
    }

    @Test func readsStandardInput() throws {
        let data = try makeTemporaryDirectory()
        defer { removeDirectory(data) }
        let json = try String(contentsOfFile: Self.feeds + "/feed-1.0.json", encoding: .utf8)
        let result = try run(["import", "--data", data, "-"], stdin: json)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.hasPrefix("stdin: "))
        #expect(try articleCount(data) > 0)
    }
}
