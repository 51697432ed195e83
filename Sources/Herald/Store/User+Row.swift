/// How a user is read from SQL: the one column list and the one row mapping `AccountStore` uses.
extension User {
    /// The columns `init(row:)` reads, first in the row; a query may select more after them.
    static let columns = "users.id, users.username, users.roles, users.banned, users.unread_replies, users.language"
    /// How many columns `columns` is: a query's own columns come after it.
    static let columnCount = 6

    /// A user from a row whose first columns are `columns`.
    init(row: SQLRow) {
        self.init(
            id: row.int(0), username: row.string(1), roles: Roles(rawValue: row.int(2)), isBanned: row.int(3) != 0,
            unreadReplies: row.int(4), language: row[5] == .null ? nil : row.string(5))
    }
}
