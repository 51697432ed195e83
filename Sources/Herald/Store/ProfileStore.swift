/// What a public profile shows: an account's name and join date, and its comments with the
/// article each is under, newest first.
public final class ProfileStore: Sendable {
    public struct ProfileComment: Sendable, Equatable {
        public var id: Int
        public var body: String
        public var createdAt: Int
        public var articleSlug: String
        public var articleTitle: String
    }

    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// The account's name as written and when it joined.
    public func account(named username: String) throws -> (id: Int, username: String, createdAt: Int)? {
        try database.withConnection { connection in
            try connection.query(
                "SELECT id, username, created_at FROM users WHERE username_key = ?", [.text(AccountStore.key(username))]
            )
        }.first.map { (id: $0.int(0), username: $0.string(1), createdAt: $0.int(2)) }
    }

    /// One page of the account's comments, newest first, plus whether an older page exists.
    public func comments(userID: Int, page: Int, size: Int, now: Int) throws -> (
        comments: [ProfileComment], hasOlder: Bool
    ) {
        let rows = try database.withConnection { connection in
            try connection.query(
                """
                SELECT c.id, c.body, c.created_at, articles.slug, articles.title
                FROM comments c JOIN articles ON articles.id = c.article_id
                WHERE c.user_id = ? AND c.hidden = 0 AND \(ArticleStore.published)
                ORDER BY c.id DESC LIMIT ? OFFSET ?
                """,
                [
                    .integer(Int64(userID)), .integer(Int64(now)), .integer(Int64(size + 1)),
                    .integer(Int64((page - 1) * size)),
                ])
        }
        let comments = rows.prefix(size).map {
            ProfileComment(
                id: $0.int(0), body: $0.string(1), createdAt: $0.int(2), articleSlug: $0.string(3),
                articleTitle: $0.string(4))
        }
        return (comments, rows.count > size)
    }
}
