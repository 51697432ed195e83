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
        /// Its owner already has as many parked, or as many bytes, as it may, or its pool is full:
        /// nothing was stored.
        case full
    }

    /// What one owner, and the pool its kind of owner shares, may hold.
    struct Bounds: Sendable, Equatable {
        /// The pool its kind of owner shares (`address` or `account`).
        var pool: String
        var formsPerOwner: Int
        var bytesPerOwner: Int
        var poolBytes: Int
    }

    private let database: Database

    init(database: Database) {
        self.database = database
    }

    /// Stores `form` under a new random id for `owner` (a client address key, or an account), recording
    /// the browser that parked it, first deleting `replacing` (the browser's previous parked
    /// form: one per browser) and every expired one.
    func park(
        _ form: ParkedForm, owner: String, browser: String, replacing previous: String?, expiresAt: Int, now: Int,
        bounds: Bounds
    ) throws -> ParkOutcome {
        let fields = try JSONEncoder().encode(form.fields.map { [$0.0, $0.1] })
        let id = Sodium.base64URL(Sodium.randomBytes(18))
        return try database.write { connection in
            try connection.query("DELETE FROM parked_forms WHERE expires_at <= ?", [.integer(Int64(now))])
            if let previous {
                try connection.query(
                    "DELETE FROM parked_forms WHERE id = ? AND browser = ?", [.text(previous), .text(browser)])
            }
            let mine = try connection.query(
                "SELECT count(*), CAST(coalesce(sum(size), 0) AS BIGINT) FROM parked_forms WHERE owner = ?",
                [.text(owner)]
            ).first
            let pooled =
                try connection.query(
                    "SELECT CAST(coalesce(sum(size), 0) AS BIGINT) FROM parked_forms WHERE pool = ?",
                    [.text(bounds.pool)]
                ).first?.int(0) ?? 0
            let count = mine?.int(0) ?? 0
            let bytes = mine?.int(1) ?? 0
            guard count < bounds.formsPerOwner, bytes + form.size <= bounds.bytesPerOwner,
                pooled + form.size <= bounds.poolBytes
            else { return .full }
            try connection.query(
                """
                INSERT INTO parked_forms (id, owner, pool, browser, fields, file, size, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """,
                [
                    .text(id), .text(owner), .text(bounds.pool), .text(browser),
                    .text(String(decoding: fields, as: UTF8.self)),
                    form.file.map { .blob($0) } ?? .null, .integer(Int64(form.size)), .integer(Int64(expiresAt)),
                ])
            return .parked(id: id)
        }
    }

    /// The parked form `id` that `browser` parked, deleted as it is read; nil when there is none
    /// (taken, expired, unknown, or parked by another browser). Expired forms are purged here and
    /// whenever a form is parked: none outlives its expiry by more than the time until the next
    /// login or capture.
    func take(_ id: String, browser: String, now: Int) throws -> ParkedForm? {
        let row = try database.write { connection in
            try connection.query("DELETE FROM parked_forms WHERE expires_at <= ?", [.integer(Int64(now))])
            return try connection.query(
                "DELETE FROM parked_forms WHERE id = ? AND browser = ? AND expires_at > ? RETURNING fields, file",
                [.text(id), .text(browser), .integer(Int64(now))]
            ).first
        }
        guard let row, let fields = Self.fields(row.string(0)) else { return nil }
        let file = row[1] == .null ? nil : row.bytes(1)
        return ParkedForm(fields: fields, file: file)
    }

    /// The parked form `id` without taking it or its file (to describe it, or show its text to
    /// the person it will not be done for); only for the browser that parked it.
    func peek(_ id: String, browser: String, now: Int) throws -> ParkedForm? {
        let row = try database.withConnection { connection in
            try connection.query(
                "SELECT fields FROM parked_forms WHERE id = ? AND browser = ? AND expires_at > ?",
                [.text(id), .text(browser), .integer(Int64(now))]
            ).first
        }
        guard let row, let fields = Self.fields(row.string(0)) else { return nil }
        return ParkedForm(fields: fields, file: nil)
    }

    func discard(_ id: String) throws {
        try database.write { connection in
            try connection.query("DELETE FROM parked_forms WHERE id = ?", [.text(id)])
        }
    }

    private static func fields(_ json: String) -> [(String, String)]? {
        guard let pairs = try? JSONDecoder().decode([[String]].self, from: Data(json.utf8)) else { return nil }
        return pairs.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
    }
}

/// How much parking anonymous browsers, and accounts' browsers, may use (SPEC third wave,
/// "Parking"). Anonymous forms are small text only, in a pool of their own, so that no number of
/// strangers can take the room an editor's save needs; files and large forms are parked only for a
/// browser whose session belonged, within the last day, to an account that may perform the action,
/// and counted per account.
public struct ParkingLimits: Sendable {
    /// The largest form an anonymous browser may park (a long comment or reply), with no file.
    public var anonymousFormBytes = 64 << 10
    /// Parked forms from one client address at once (a household or an office behind one address).
    public var formsPerAddress = 8
    /// Bytes of all anonymous parked forms together.
    public var anonymousBytes = 32 << 20
    /// Parked forms, and their bytes, per account.
    public var formsPerAccount = 8
    public var bytesPerAccount = 64 << 20
    /// Bytes of all accounts' parked forms together: with 5 MB images, room for dozens of editors.
    public var accountBytes = 256 << 20
    /// How long a parked form is kept (SPEC: at most 24 hours).
    public var lifetimeSeconds = 24 * 3600

    public init() {}
}
