internal import CPostgres
import TextSupport

/// One PostgreSQL connection (libpq) with its prepared statements.
///
/// Not thread-safe: used by one thread at a time, handed out by `Database`. Parameters are sent
/// separately from the SQL (`PQexecPrepared`), as text, or as binary for blobs.
final class PostgresConnection: SQLConnection {
    private let handle: OpaquePointer
    /// Prepared statement names by SQL text.
    private var statements: [String: String] = [:]
    private(set) var changes = 0

    init(url: String) throws(StoreError) {
        guard let handle = PQconnectdb(url) else { throw .unavailable("cannot allocate a PostgreSQL connection") }
        guard PQstatus(handle) == CONNECTION_OK else {
            let message = String(cString: PQerrorMessage(handle))
            PQfinish(handle)
            throw .unavailable("cannot connect to PostgreSQL: \(message.trimmingTrailingASCIIWhitespace())")
        }
        self.handle = handle
        // Quiet NOTICEs (e.g. "relation already exists, skipping") instead of printing them to stderr.
        _ = try? execute("SET client_min_messages TO WARNING")
    }

    deinit { PQfinish(handle) }

    /// Whether the connection is still usable (a broken one is not put back in the pool).
    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    func execute(_ sql: String) throws(StoreError) {
        guard let result = PQexec(handle, sql) else { throw error(nil) }
        defer { PQclear(result) }
        try check(result)
    }

    func query(_ sql: String, _ parameters: [SQLValue]) throws(StoreError) -> [SQLRow] {
        let name = try prepared(sql, parameterCount: parameters.count)
        let result = bindAndExecute(name, parameters)
        guard let result else { throw error(nil) }
        defer { PQclear(result) }
        try check(result)
        changes = Int(String(cString: PQcmdTuples(result))) ?? 0
        return rows(of: result)
    }

    let beginTransaction = "BEGIN"

    private func prepared(_ sql: String, parameterCount: Int) throws(StoreError) -> String {
        if let name = statements[sql] { return name }
        let name = "s\(statements.count)"
        guard let result = PQprepare(handle, name, Self.numberingPlaceholders(sql), Int32(parameterCount), nil) else {
            throw error(nil)
        }
        defer { PQclear(result) }
        try check(result)
        statements[sql] = name
        return name
    }

    private func bindAndExecute(_ name: String, _ parameters: [SQLValue]) -> OpaquePointer? {
        // Every parameter's bytes, kept alive until the call returns.
        var buffers: [[CChar]?] = []
        var lengths: [Int32] = []
        var formats: [Int32] = []
        for parameter in parameters {
            switch parameter {
            case .integer(let value):
                buffers.append(Array(String(value).utf8CString))
                formats.append(0)
            case .real(let value):
                buffers.append(Array(String(value).utf8CString))
                formats.append(0)
            case .text(let value):
                buffers.append(Array(value.utf8CString))
                formats.append(0)
            case .blob(let bytes):
                buffers.append(bytes.map { CChar(bitPattern: $0) })
                formats.append(1)
            case .null:
                buffers.append(nil)
                formats.append(0)
            }
            lengths.append(Int32(buffers.last??.count ?? 0))
        }
        return withPointers(buffers) { pointers in
            PQexecPrepared(handle, name, Int32(parameters.count), pointers, lengths, formats, 0)
        }
    }

    private func withPointers<R>(_ buffers: [[CChar]?], _ body: ([UnsafePointer<CChar>?]) -> R) -> R {
        var pointers: [UnsafePointer<CChar>?] = []
        func nest(_ index: Int) -> R {
            if index == buffers.count { return body(pointers) }
            guard let buffer = buffers[index] else {
                pointers.append(nil)
                return nest(index + 1)
            }
            return buffer.withUnsafeBufferPointer { pointer in
                pointers.append(pointer.baseAddress)
                return nest(index + 1)
            }
        }
        return nest(0)
    }

    private func rows(of result: OpaquePointer) -> [SQLRow] {
        let rowCount = PQntuples(result)
        let columnCount = PQnfields(result)
        var rows: [SQLRow] = []
        rows.reserveCapacity(Int(rowCount))
        for row in 0..<rowCount {
            var values: [SQLValue] = []
            for column in 0..<columnCount {
                if PQgetisnull(result, row, column) == 1 {
                    values.append(.null)
                    continue
                }
                let length = Int(PQgetlength(result, row, column))
                let text =
                    PQgetvalue(result, row, column).map {
                        String(decoding: UnsafeRawBufferPointer(start: $0, count: length), as: UTF8.self)
                    } ?? ""
                switch PQftype(result, column) {
                case 20, 21, 23: values.append(Int64(text).map(SQLValue.integer) ?? .null)  // int8, int2, int4
                case 700, 701, 1700: values.append(Double(text).map(SQLValue.real) ?? .null)  // float4/8, numeric
                case 17: values.append(.blob(Self.decodeByteaHex(text)))  // bytea, hex format
                default: values.append(.text(text))
                }
            }
            rows.append(SQLRow(values: values))
        }
        return rows
    }

    private func check(_ result: OpaquePointer) throws(StoreError) {
        switch PQresultStatus(result) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY: return
        default: throw error(result)
        }
    }

    /// Maps SQLSTATE classes to what the caller can do about them.
    private func error(_ result: OpaquePointer?) -> StoreError {
        let message = String(cString: PQerrorMessage(handle)).trimmingTrailingASCIIWhitespace()
        let state =
            result.flatMap { PQresultErrorField($0, Int32(UInt8(ascii: "C"))) }.map { String(cString: $0) } ?? ""
        switch state.prefix(2) {
        case "23": return .constraint(message)
        case "40", "55", "57": return .busy  // serialization failure, deadlock, lock not available, shutdown
        case "53", "58", "08", "25": return .unavailable(message)  // resources, disk, connection, read-only
        default: return isHealthy ? .failed(message) : .unavailable(message)
        }
    }

    /// `?` → `$1`, `$2`… outside quoted literals and identifiers.
    static func numberingPlaceholders(_ sql: String) -> String {
        var out = ""
        var number = 0
        var quote: Character?
        for character in sql {
            if let open = quote {
                if character == open { quote = nil }
                out.append(character)
            } else if character == "'" || character == "\"" {
                quote = character
                out.append(character)
            } else if character == "?" {
                number += 1
                out += "$\(number)"
            } else {
                out.append(character)
            }
        }
        return out
    }

    /// `\x0a1b…` → bytes.
    static func decodeByteaHex(_ text: String) -> [UInt8] {
        let digits = Array(text.utf8.dropFirst(2))
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        var index = 0
        while index + 1 < digits.count {
            guard let high = ASCII.hexValue(digits[index]), let low = ASCII.hexValue(digits[index + 1]) else {
                return []
            }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }
}
