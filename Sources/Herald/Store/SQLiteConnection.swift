internal import CSQLite

/// One SQLite connection with its cache of prepared statements.
///
/// Not thread-safe: a connection is used by one thread at a time, handed out by `Database`.
final class SQLiteConnection: SQLConnection {
    /// How much of the database file is read through a memory map (1 GiB; beyond it, pread).
    static let mappedBytes = 1 << 30

    private let handle: OpaquePointer
    private var statements: [String: OpaquePointer] = [:]

    /// Opens (creating if needed) the database at `path`. The busy timeout is set
    /// before anything else touches the file, so even the first pragmas wait for a lock.
    init(path: String, busyTimeoutMilliseconds: Int32 = 5000, readOnly: Bool = false) throws(StoreError) {
        var handle: OpaquePointer?
        let flags =
            (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
            | SQLITE_OPEN_EXRESCODE
        let status = sqlite3_open_v2(path, &handle, flags, nil)
        guard status == SQLITE_OK, let handle else {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open \(path)"
            sqlite3_close_v2(handle)
            throw Self.error(status, message)
        }
        self.handle = handle
        sqlite3_busy_timeout(handle, busyTimeoutMilliseconds)
        try execute("PRAGMA foreign_keys = ON")
        // Pages are read from a memory map of the file rather than copied in by a pread each:
        // a profile page at scale (100k articles, 1M comments, each of its 21 comments on its own
        // page) spent a fifth of its time in pread, and took 29 % less CPU mapped. The map is
        // address space, not memory: untouched parts cost nothing, and the kernel may drop what
        // was read like any cached file page. A write still goes through the WAL as before.
        try execute("PRAGMA mmap_size = \(Self.mappedBytes)")
        if !readOnly {
            try execute("PRAGMA journal_mode = WAL")
            // NORMAL in WAL mode: a committed transaction survives a crash of the process
            // (it is in the WAL file before COMMIT returns); only a power loss or kernel
            // crash may roll back the last transactions. See README, "Durability".
            try execute("PRAGMA synchronous = NORMAL")
        }
    }

    deinit {
        for statement in statements.values { sqlite3_finalize(statement) }
        sqlite3_close_v2(handle)
    }

    /// Runs SQL that returns no rows and takes no parameters (schema, pragmas, transactions).
    func execute(_ sql: String) throws(StoreError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        if status != SQLITE_OK {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(handle))
            sqlite3_free(message)
            throw Self.error(status, text)
        }
    }

    /// Runs one statement with bound parameters and returns all its rows.
    @discardableResult
    func query(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [SQLRow] {
        let statement = try prepared(sql)
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
        }
        try bind(parameters, to: statement)
        var rows: [SQLRow] = []
        while true {
            let status = sqlite3_step(statement)
            if status == SQLITE_DONE { return rows }
            guard status == SQLITE_ROW else { throw Self.error(status, String(cString: sqlite3_errmsg(handle))) }
            rows.append(SQLRow(statement: statement))
        }
    }

    /// Rows changed by the last INSERT, UPDATE or DELETE.
    var changes: Int { Int(sqlite3_changes(handle)) }

    /// `BEGIN IMMEDIATE` takes the write lock up front, so two writers never deadlock
    /// upgrading read locks; the busy timeout makes the second one wait instead.
    let beginTransaction = "BEGIN IMMEDIATE"

    private func prepared(_ sql: String) throws(StoreError) -> OpaquePointer {
        if let statement = statements[sql] { return statement }
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard status == SQLITE_OK, let statement else {
            throw Self.error(status, String(cString: sqlite3_errmsg(handle)))
        }
        statements[sql] = statement
        return statement
    }

    private func bind(_ parameters: [SQLValue], to statement: OpaquePointer) throws(StoreError) {
        for (offset, value) in parameters.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let text): status = sqlite3_bind_text(statement, index, text, -1, sqliteTransient)
            case .blob(let bytes):
                status = bytes.withUnsafeBytes {
                    sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), sqliteTransient)
                }
            case .null: status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw Self.error(status, String(cString: sqlite3_errmsg(handle))) }
        }
    }

    static func error(_ status: Int32, _ message: String) -> StoreError {
        switch status & 0xFF {
        case SQLITE_BUSY, SQLITE_LOCKED: .busy
        case SQLITE_CONSTRAINT: .constraint(message)
        case SQLITE_FULL, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_PERM: .unavailable(message)
        default: .failed(message)
        }
    }
}

/// SQLite copies bound text and blobs at once (`SQLITE_TRANSIENT`), so Swift's buffers may go away.
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

extension SQLRow {
    /// Copies the current row out of a stepped statement.
    fileprivate init(statement: OpaquePointer) {
        let count = sqlite3_column_count(statement)
        var values: [SQLValue] = []
        values.reserveCapacity(Int(count))
        for column in 0..<count {
            switch sqlite3_column_type(statement, column) {
            case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(statement, column)))
            case SQLITE_FLOAT: values.append(.real(sqlite3_column_double(statement, column)))
            case SQLITE_TEXT:
                let length = Int(sqlite3_column_bytes(statement, column))
                let text = sqlite3_column_text(statement, column).map {
                    String(decoding: UnsafeBufferPointer(start: $0, count: length), as: UTF8.self)
                }
                values.append(.text(text ?? ""))
            case SQLITE_BLOB:
                let length = Int(sqlite3_column_bytes(statement, column))
                let bytes = sqlite3_column_blob(statement, column).map {
                    Array(UnsafeRawBufferPointer(start: $0, count: length))
                }
                values.append(.blob(bytes ?? []))
            default: values.append(.null)
            }
        }
        self.init(values: values)
    }
}
