/// The interface language a reader chose, kept on their account (mail sent off any request).
extension AccountStore {
    public func setLanguage(userID: Int, to language: String?) throws {
        try database.write { connection in
            try connection.query(
                "UPDATE users SET language = ? WHERE id = ?",
                [language.map { .text($0) } ?? .null, .integer(Int64(userID))])
        }
    }
}
