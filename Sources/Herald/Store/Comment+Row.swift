/// How a comment is read from SQL: the one selection and the one row mapping `CommentStore` uses.
extension Comment {
    /// The columns `init(row:)` reads, in its order, from comments joined to their authors;
    /// callers append their `WHERE` clause.
    static let selection = """
        SELECT comments.id, comments.article_id, comments.user_id, users.username, comments.body, comments.created_at,
        comments.hidden, comments.parent_id, comments.thread_id, comments.edited_at
        FROM comments JOIN users ON users.id = comments.user_id
        """

    /// How many columns `selection` reads: a query's own columns come after them.
    static let columnCount = 10

    /// A comment from a row selected with `selection`.
    init(row: SQLRow) {
        self.init(
            id: row.int(0), articleID: row.int(1), userID: row.int(2), author: row.string(3), body: row.string(4),
            createdAt: row.int(5), isHidden: row.int(6) != 0, parentID: row.optionalInt(7), threadID: row.int(8),
            editedAt: row.optionalInt(9))
    }
}
