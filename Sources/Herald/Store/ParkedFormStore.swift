import Foundation

/// A form too large for the intent cookie, kept server-side until its reader logs in: its kept
/// text fields and the bytes of at most one file (an article's image; the action that parked it
/// names the file's field).
struct ParkedForm: Sendable, Equatable {
    var fields: [(String, String)]
    var file: [UInt8]?

    static func == (a: ParkedForm, b: ParkedForm) -> Bool {
        a.fields.elementsEqual(b.fields, by: ==) && a.file == b.file
    }

    /// Bytes it takes in the store: what the global bound counts.
    var size: Int {
        fields.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count } + (file?.count ?? 0)
    }
}

/// Parked forms in SQL, so that whichever server the reader logs in on finds them. Each is taken
/// once (read and deleted in one statement), and none outlives its expiry.
final class ParkedFormStore: Sendable {
    enum ParkOutcome: Sendable, Equatable {
        case parked(id: String)
        /// This client already has as many parked as it may, or all of them together would pass the
        /// global bound: nothing was stored.
        case full
    }

    private let database: Database

    init(database: Database) {
        self.database = database
    }

    /// Stores `form` under a new random id for `owner` (the client's address key), first deleting
    /// `replacing` (the browser's previous parked form: one per browser) and every expired one.
    func park(
        _ form: ParkedForm, owner: String, replacing previous: String?, expiresAt: Int, now: Int,
        limits: ParkingLimits
    ) throws -> ParkOutcome {
        let fields = try JSONEncoder().encode(form.fields.map { [$0.0, $0.1] })
        let id = Sodium.base64URL(Sodium.randomBytes(18))
        return try database.write { connection in
            try connection.query("DELETE FROM parked_forms WHERE expires_at <= ?", [.integer(Int64(now))])
            if let previous { try connection.query("DELETE FROM parked_forms WHERE id = ?", [.text(previous)]) }
            let ownerCount =
                try connection.query("SELECT count(*) FROM parked_forms WHERE owner = ?", [.text(owner)]).first?.int(0)
                ?? 0
            let total =
                try connection.query("SELECT CAST(coalesce(sum(size), 0) AS BIGINT) FROM parked_forms").first?.int(0) ?? 0
            guard ownerCount < limits.perClient, total + form.size <= limits.totalBytes else { return .full }
            try connection.query(
                """
                INSERT INTO parked_forms (id, owner, fields, file, size, expires_at) VALUES (?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(id), .text(owner), .text(String(decoding: fields, as: UTF8.self)),
                    form.file.map { .blob($0) } ?? .null, .integer(Int64(form.size)),
                    .integer(Int64(expiresAt)),
                ])
            return .parked(id: id)
        }
    }

    /// The parked form `id`, deleted as it is read; nil when there is none (taken, expired, unknown).
    /// Expired forms are purged here and whenever a form is parked: none outlives its expiry by
    /// more than the time until the next login or capture.
    func take(_ id: String, now: Int) throws -> ParkedForm? {
        let row = try database.write { connection in
            try connection.query("DELETE FROM parked_forms WHERE expires_at <= ?", [.integer(Int64(now))])
            return try connection.query(
                "DELETE FROM parked_forms WHERE id = ? AND expires_at > ? RETURNING fields, file",
                [.text(id), .integer(Int64(now))]
            ).first
        }
        guard let row,
            let pairs = try? JSONDecoder().decode([[String]].self, from: Data(row.string(0).utf8))
        else { return nil }
        let fields = pairs.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
        let file = row[1] == .null ? nil : row.bytes(1)
        return ParkedForm(fields: fields, file: file)
    }

    /// The parked form `id` without taking it (to show its text to someone it will not be done for).
    func peek(_ id: String, now: Int) throws -> ParkedForm? {
        let row = try database.withConnection { connection in
            try connection.query(
                "SELECT fields FROM parked_forms WHERE id = ? AND expires_at > ?", [.text(id), .integer(Int64(now))]
            ).first
        }
        guard let row, let pairs = try? JSONDecoder().decode([[String]].self, from: Data(row.string(0).utf8)) else {
            return nil
        }
        return ParkedForm(fields: pairs.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }, file: nil)
    }

    func discard(_ id: String) throws {
        try database.write { connection in
            try connection.query("DELETE FROM parked_forms WHERE id = ?", [.text(id)])
        }
    }
}

/// How much parking one client, and everyone together, may use.
public struct ParkingLimits: Sendable {
    /// Parked forms from one client address at once (a browser keeps one; a household or an
    /// office behind one address has a few).
    public var perClient = 8
    /// Bytes of all parked forms together: with 5 MB images, room for dozens of editors at once.
    public var totalBytes = 256 << 20
    /// How long a parked form is kept (SPEC: at most 24 hours).
    public var lifetimeSeconds = 24 * 3600

    public init() {}
}
