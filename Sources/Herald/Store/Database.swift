import Foundation
import Synchronization
import TextSupport

/// The database: SQLite in the data directory by default, or a shared PostgreSQL server for
/// sites that run several Herald servers. Stores see only this and `SQLConnection`.
///
/// Connections are pooled; each keeps its prepared statements, so a statement is compiled once
/// per connection and then only bound and run.
public final class Database: Sendable {
    public enum Backend: Sendable, Equatable {
        case sqlite(path: String)
        case postgres(url: String)
    }

    public let backend: Backend
    private let idle = Mutex<[ConnectionBox]>([])
    private let writes = Atomic<Int>(0)
    /// Time spent in write transactions (waiting for the writer's turn included), for metrics.
    private let writeMicroseconds = Atomic<Int>(0)
    private let maximumIdle: Int
    /// SQLite: how long a statement waits for another connection's lock before giving up (then: 503).
    private let busyTimeoutMilliseconds: Int32
    /// PostgreSQL: at most this many connections at once; a request waits for a free one.
    private let connectionSlots: DispatchSemaphore?
    /// SQLite has one writer at a time. Taking turns here, in the process, means a writer waits
    /// on a lock that wakes it the moment the other commits, instead of hitting SQLITE_BUSY and
    /// sleeping in SQLite's busy handler, which left the server idle under a stream of likes
    /// (measured: 0.85 of a core busy at 6k POSTs/s). Writers in other processes
    /// (`herald import`) still meet the busy timeout.
    private let sqliteWriter: NSLock?

    /// Opens (creating if needed) a SQLite database file and brings its schema up to date.
    public convenience init(path: String, maximumIdleConnections: Int = 16, busyTimeoutMilliseconds: Int32 = 5000)
        throws
    {
        try self.init(
            backend: .sqlite(path: path), maximumIdleConnections: maximumIdleConnections,
            busyTimeoutMilliseconds: busyTimeoutMilliseconds)
    }

    public init(backend: Backend, maximumIdleConnections: Int = 16, busyTimeoutMilliseconds: Int32 = 5000) throws {
        self.backend = backend
        self.maximumIdle = maximumIdleConnections
        self.busyTimeoutMilliseconds = busyTimeoutMilliseconds
        if case .sqlite(let path) = backend, !FileManager.default.fileExists(atPath: path) {
            // Created 0600 before SQLite opens it: its -wal and -shm files take the same mode.
            guard FileManager.default.createFile(atPath: path, contents: nil, attributes: [.posixPermissions: 0o600])
            else { throw StoreError.unavailable("cannot create the database file \(path)") }
        }
        if case .postgres = backend {
            connectionSlots = DispatchSemaphore(value: maximumIdleConnections)
            sqliteWriter = nil
        } else {
            connectionSlots = nil
            sqliteWriter = NSLock()
        }
        let first = try Self.connect(backend, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        try Migrations.apply(to: first, dialect: dialect)
        idle.withLock { $0.append(ConnectionBox(first)) }
    }

    var dialect: Migrations.Dialect {
        if case .postgres = backend { return .postgres }
        return .sqlite
    }

    private static func connect(_ backend: Backend, busyTimeoutMilliseconds: Int32) throws -> any SQLConnection {
        switch backend {
        case .sqlite(let path): try SQLiteConnection(path: path, busyTimeoutMilliseconds: busyTimeoutMilliseconds)
        case .postgres(let url): try PostgresConnection(url: url)
        }
    }

    /// Runs `body` with a connection of its own; the connection goes back to the pool after.
    func withConnection<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        connectionSlots?.wait()
        defer { connectionSlots?.signal() }
        let box =
            try idle.withLock { $0.popLast() }
            ?? ConnectionBox(Self.connect(backend, busyTimeoutMilliseconds: busyTimeoutMilliseconds))
        defer {
            // A PostgreSQL connection that broke (server restarted) is dropped; the next use opens a new one.
            let healthy = (box.connection as? PostgresConnection)?.isHealthy ?? true
            if healthy {
                idle.withLock { connections in
                    if connections.count < maximumIdle { connections.append(box) }
                }
            }
        }
        return try body(box.connection)
    }

    /// Runs `body` in one write transaction.
    @discardableResult
    func write<T>(_ body: (any SQLConnection) throws -> T) throws -> T {
        let start = monotonicMicroseconds()
        sqliteWriter?.lock()
        defer { sqliteWriter?.unlock() }
        let result = try withConnection { connection in try connection.transaction { try body(connection) } }
        writeMicroseconds.add(Int(monotonicMicroseconds() - start), ordering: .relaxed)
        writes.add(1, ordering: .releasing)
        return result
    }

    /// Counts committed write transactions made through this process, so caches of what was read
    /// can tell that something may have changed.
    public var writeCount: Int { writes.load(ordering: .acquiring) }

    /// Seconds spent in committed write transactions since start.
    public var writeSeconds: Double { Double(writeMicroseconds.load(ordering: .relaxed)) / 1_000_000 }

    /// The schema version the database is at.
    public func schemaVersion() throws -> Int {
        try withConnection { try Migrations.currentVersion(of: $0, dialect: dialect) }
    }

    /// "ok" when the database is sound (SQLite's `PRAGMA integrity_check`; PostgreSQL checks itself).
    public func integrityCheck() throws -> String {
        switch dialect {
        case .sqlite: try withConnection { try $0.query("PRAGMA integrity_check").first?.string(0) ?? "" }
        case .postgres: try withConnection { try $0.query("SELECT 'ok'").first?.string(0) ?? "" }
        }
    }

    /// A cheap round trip that proves a connection can read the schema.
    func isReachable() throws -> Bool {
        try withConnection { try $0.query("SELECT count(*) FROM articles WHERE id = 0").first != nil }
    }

    /// Closes every idle connection (at shutdown; SQLite checkpoints its WAL at the last close).
    public func close() {
        idle.withLock { $0.removeAll() }
    }
}

/// Moves a connection between threads; only one thread holds it at a time.
private final class ConnectionBox: @unchecked Sendable {
    let connection: any SQLConnection
    init(_ connection: any SQLConnection) { self.connection = connection }
}
