/// How a user is read from SQL: the one column list and the one row mapping `AccountStore` uses.
extension User {
    /// The columns `init(row:)` reads, first in the row; a query may select more after them.
    static let columns =
        "users.id, users.username, users.roles, users.banned, users.unread_replies, users.banned_until, users.language"
    /// How many columns `columns` is: a query's own columns come after it.
    static let columnCount = 7

    /// `activeBan(at:)` in SQL, for queries that filter accounts themselves: true when the account
    /// `table` names has no ban in force at the one `?` it holds (now). A ban whose time has
    /// passed counts as none, as in Swift.
    static func notBannedSQL(_ table: String) -> String {
        "(\(table).banned = 0 OR \(table).banned_until <= ?)"
    }

    /// A user from a row whose first columns are `columns`.
    init(row: SQLRow) {
        self.init(
            id: row.int(0), username: row.string(1), roles: Roles(rawValue: row.int(2)),
            ban: row.int(3) != 0 ? Ban(until: row.optionalInt(5)) : nil, unreadReplies: row.int(4),
            language: row[6] == .null ? nil : row.string(6))
    }
}
