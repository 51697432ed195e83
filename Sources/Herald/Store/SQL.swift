/// What the stores need from a database connection, SQLite or PostgreSQL.
///
/// SQL is written once, portable: `?` placeholders (the PostgreSQL connection numbers them),
/// `INSERT … RETURNING`, `ON CONFLICT … DO NOTHING`. Values are only ever bound, never
/// spliced into SQL.
protocol SQLConnection: AnyObject {
    /// Runs SQL that returns no rows and takes no parameters (schema, transactions).
    func execute(_ sql: String) throws(StoreError)
    /// Runs one statement with bound parameters and returns all its rows.
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [SQLRow]
    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { get }
    /// The statement that opens a write transaction.
    var beginTransaction: String { get }
}

extension SQLConnection {
    /// Runs `body` in a transaction: committed if it returns, rolled back if it throws.
    func transaction<T>(_ body: () throws -> T) throws -> T {
        try execute(beginTransaction)
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    @discardableResult
    func query(_ sql: String) throws(StoreError) -> [SQLRow] { try query(sql, []) }
}

/// A value bound to, or read from, an SQL statement.
public enum SQLValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// What went wrong in the store, as a value the caller can act on.
public enum StoreError: Error, CustomStringConvertible, Equatable {
    /// The database stayed locked past the busy timeout: try again later (503).
    case busy
    /// A UNIQUE, FOREIGN KEY or CHECK constraint refused the write.
    case constraint(String)
    /// The disk is full or the database cannot be written (read-only, I/O error).
    case unavailable(String)
    /// Anything else SQLite reported.
    case failed(String)

    public var description: String {
        switch self {
        case .busy: "database is busy"
        case .constraint(let message): "constraint failed: \(message)"
        case .unavailable(let message): "database unavailable: \(message)"
        case .failed(let message): "database error: \(message)"
        }
    }
}

/// One result row, copied out of the database.
struct SQLRow {
    private let values: [SQLValue]

    init(values: [SQLValue]) {
        self.values = values
    }

    subscript(_ index: Int) -> SQLValue { index < values.count ? values[index] : .null }

    func int(_ index: Int) -> Int {
        if case .integer(let value) = self[index] { return Int(value) }
        return 0
    }

    func string(_ index: Int) -> String {
        if case .text(let value) = self[index] { return value }
        return ""
    }

    /// Nil for NULL.
    func optionalInt(_ index: Int) -> Int? {
        if case .integer(let value) = self[index] { return Int(value) }
        return nil
    }

    /// Nil for NULL.
    func optionalString(_ index: Int) -> String? {
        if case .text(let value) = self[index] { return value }
        return nil
    }

    func bytes(_ index: Int) -> [UInt8] {
        if case .blob(let value) = self[index] { return value }
        return []
    }
}
