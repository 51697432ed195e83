/// An uploaded image as stored: its bytes and what serving it needs.
public struct MediaFile: Sendable, Equatable {
    /// `{sha256 hex}.{ext}`: the name is the content, so a name always means the same bytes.
    public var name: String
    public var contentType: String
    public var width: Int
    public var height: Int
    public var bytes: [UInt8]
}

/// Images in the database, so that every server behind a load balancer can serve every image.
/// Rows are immutable: the same bytes are stored once, whoever uploads them.
public final class MediaStore: Sendable {
    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    public func file(named name: String) throws -> MediaFile? {
        try database.withConnection { connection in
            try connection.query(
                "SELECT name, content_type, width, height, bytes FROM media WHERE name = ?", [.text(name)])
        }.first.map {
            MediaFile(
                name: $0.string(0), contentType: $0.string(1), width: $0.int(2), height: $0.int(3), bytes: $0.bytes(4))
        }
    }

    /// Stores `file` on its own (an image inserted into an article's text before the article is
    /// saved); an identical upload is already there.
    func add(_ file: MediaFile, now: Int) throws {
        try database.write { connection in try Self.insert(file, now: now, connection) }
    }

    /// Stores `file` inside the caller's write transaction; an identical upload is already there.
    static func insert(_ file: MediaFile, now: Int, _ connection: any SQLConnection) throws {
        try connection.query(
            """
            INSERT INTO media (name, content_type, width, height, bytes, created_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT (name) DO NOTHING
            """,
            [
                .text(file.name), .text(file.contentType), .integer(Int64(file.width)), .integer(Int64(file.height)),
                .blob(file.bytes), .integer(Int64(now)),
            ])
    }

    /// Deletes the image named `name` when no article shows it any more, as its lead image or in
    /// its text (an image inserted into the body), inside the caller's write.
    static func deleteIfUnused(_ name: String, _ connection: any SQLConnection) throws {
        try connection.query(
            """
            DELETE FROM media WHERE name = ? AND NOT EXISTS (SELECT 1 FROM articles WHERE image_name = ?)
            AND NOT EXISTS (SELECT 1 FROM articles WHERE body LIKE ?)
            """,
            // The name is hex digits, a dot and an extension: nothing in it is a LIKE wildcard.
            [.text(name), .text(name), .text("%/media/" + name + "%")])
    }
}
