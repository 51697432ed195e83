import Foundation
import TestSupport

@testable import Herald

/// Which store the tests run against: SQLite in a temp directory by default, or PostgreSQL when
/// `HERALD_TEST_DATABASE_URL` names a server (an administrative URL, e.g.
/// `postgres://herald@127.0.0.1:55432/postgres`); each test then gets a database of its own.
enum TestDatabase {
    static let postgresAdminURL: String? = {
        let url = ProcessInfo.processInfo.environment["HERALD_TEST_DATABASE_URL"] ?? ""
        return url.isEmpty ? nil : url
    }()

    static var isPostgres: Bool { postgresAdminURL != nil }

    /// A fresh, empty database for one test: its backend and a function that removes it.
    static func make(in directory: String) throws -> (backend: Database.Backend, drop: () -> Void) {
        guard let admin = postgresAdminURL else {
            return (.sqlite(path: directory + "/herald.sqlite3"), {})
        }
        let name = "herald_test_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let connection = try PostgresConnection(url: admin)
        // Database names cannot be bound parameters; this one is made of hex digits only.
        try connection.execute("CREATE DATABASE \(name)")
        let url = admin.replacingOccurrences(of: "/postgres", with: "/\(name)")
        return (
            .postgres(url: url),
            {
                try? connection.execute("DROP DATABASE IF EXISTS \(name) WITH (FORCE)")
            }
        )
    }
}

extension ArticleStore {
    /// A page of every article that is not a draft, whatever its time (tests that only read lists).
    func page(_ number: Int, size: Int) throws -> (articles: [Article], hasOlder: Bool) {
        try page(number, size: size, now: .max)
    }
}
