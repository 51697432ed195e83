import Foundation
import TestSupport
import Testing

@testable import Herald

/// `herald import` as a user runs it: counts printed, re-imports idempotent, a broken
/// file named with its reason and leaving nothing behind, stdin, exit status.
@Suite(.enabled(if: !TestDatabase.isPostgres, "works on the SQLite file directly")) struct ImportCommandTests {
    static let feeds = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Feeds").path

    private func run(_ arguments: [String], stdin: String? = nil) throws -> (status: Int32, out: String, err: String) {
        try runHerald(arguments, stdin: stdin)
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

    /// Issue #14: UTF-16 without a byte-order mark, declaring UTF-7, made libxml2 segfault (exit 139).
    @Test func aFeedInAnEncodingHeraldDoesNotReadIsRefusedNotCrashed() throws {
        let data = try makeTemporaryDirectory()
        defer { removeDirectory(data) }
        let name = "broken-utf7-in-utf16le.xml"
        let result = try run(["import", "--data", data, Self.feeds + "/" + name])
        #expect(result.status == 1, "\(result.err)")
        #expect(result.err.contains(name) && result.err.contains("“UTF-7” is not supported"), "\(result.err)")
        #expect(try articleCount(data) == 0)
    }

    @Test func utf16AndWindows1252FeedsImportWithTheirCharactersIntact() throws {
        let data = try makeTemporaryDirectory()
        defer { removeDirectory(data) }
        func atom(_ id: Int, _ encoding: String, _ title: String) -> String {
            """
            <?xml version="1.0" encoding="\(encoding)"?>
            <feed xmlns="http://www.w3.org/2005/Atom"><entry><id>e\(id)</id><title>\(title)</title>
            <updated>2024-03-0\(id)T12:00:00Z</updated><content>x</content></entry></feed>
            """
        }
        func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
            var bytes: [UInt8] = []
            for unit in text.utf16 {
                let (high, low) = (UInt8(unit >> 8), UInt8(unit & 0xFF))
                bytes += bigEndian ? [high, low] : [low, high]
            }
            return bytes
        }
        let utf16LE = [0xFF, 0xFE] + utf16(atom(1, "UTF-16", "Zoë’s café 日本"), bigEndian: false)
        let utf16BE = utf16(atom(2, "UTF-16", "Ünïcode — 𝄞"), bigEndian: true)  // no byte-order mark
        let halves = atom(3, "windows-1252", "@").split(separator: "@", omittingEmptySubsequences: false)
        // “€5 é” in Windows-1252.
        let cp1252 = Array(halves[0].utf8) + [0x93, 0x80, 0x35, 0x20, 0xE9, 0x94] + Array(halves[1].utf8)
        var files: [String] = []
        for (name, bytes) in [("utf16le.xml", utf16LE), ("utf16be.xml", utf16BE), ("cp1252.xml", cp1252)] {
            files.append(data + "/" + name)
            #expect(FileManager.default.createFile(atPath: data + "/" + name, contents: Data(bytes)))
        }
        let result = try run(["import", "--data", data] + files)
        #expect(result.status == 0, "\(result.err)")
        let database = try Database(path: data + "/herald.sqlite3")
        defer { database.close() }
        let titles = try ArticleStore(database: database).page(1, size: 10).articles.map(\.title)
        #expect(titles == ["“€5 é”", "Ünïcode — 𝄞", "Zoë’s café 日本"])
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
