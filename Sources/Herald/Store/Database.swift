import Foundation
import Synchronization

/// The SQLite database: a pool of connections, one per concurrently serving thread.
///
/// Each connection keeps its prepared statements, so a statement is compiled once
/// per connection and then only bound and stepped.
public final class Database: Sendable {
    public let path: String
    private let idle = Mutex<[ConnectionBox]>([])
    private let writes = Atomic<Int>(0)
    private let maximumIdle: Int
    /// How long a statement waits for another connection's lock before giving up (then: 503).
    private let busyTimeoutMilliseconds: Int32

    /// Opens the database, creating it if needed, and brings its schema up to date.
    public init(path: String, maximumIdleConnections: Int = 16, busyTimeoutMilliseconds: Int32 = 5000) throws {
        self.path = path
        self.maximumIdle = maximumIdleConnections
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        // Created 0600 before SQLite opens it: its -wal and -shm files take the same mode.
        if !FileManager.default.fileExists(atPath: path) {
            FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
        }
        let first = try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try Migrations.apply(to: first)
        idle.withLock { $0.append(ConnectionBox(first)) }
    }

    /// Runs `body` with a connection of its own; the connection goes back to the pool after.
    func withConnection<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let box = try idle.withLock { $0.popLast() } 
            ?? ConnectionBox(SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
        defer {
            idle.withLock { connections in
                if connections.count < maximumIdle { connections.append(box) }
            }
        }
        return try body(box.connection)
    }

    /// Runs `body` in one write transaction.
    func write<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let result = try withConnection { connection in try connection.transaction { try body(connection) } }
        writes.add(1, ordering: .releasing)
        return result
    }

    /// Counts committed write transactions made through this process, so caches of what was read
    /// can tell that something may have changed.
    public var writeCount: Int { writes.load(ordering: .acquiring) }

    /// The schema version (`PRAGMA user_version`).
    public func schemaVersion() throws -> Int {
        try withConnection { try $0.query("PRAGMA user_version").first?.int(0) ?? 0 }
    }

    /// `PRAGMA integrity_check`: "ok" when the file is sound.
    public func integrityCheck() throws -> String {
        try withConnection { try $0.query("PRAGMA integrity_check").first?.string(0) ?? "" }
    }

    /// Closes every idle connection (at shutdown; WAL is checkpointed by the last close).
    public func close() {
        idle.withLock { $0.removeAll() }
    }
}

/// Moves a connection between threads; only one thread holds it at a time.
private final class ConnectionBox: @unchecked Sendable {
    let connection: SQLiteConnection
    init(_ connection: SQLiteConnection) { self.connection = connection }
}

extension Database {
    /// A cheap round trip that proves a connection can read the schema.
    func integrityQuickCheck() throws -> Bool {
        try withConnection { try $0.query("SELECT count(*) FROM sqlite_schema").first != nil }
    }
}
