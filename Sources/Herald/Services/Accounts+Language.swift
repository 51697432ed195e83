/// A reader's interface language on their account: set when they choose one while logged in
/// (`POST /language`) and at registration, read for mail written off any request.
extension Accounts {
    /// Only Herald's own interface languages are kept; anything else is not stored.
    public func setLanguage(_ language: String, of userID: Int) throws {
        guard InterfaceLanguage(rawValue: language) != nil else { return }
        try store.setLanguage(userID: userID, to: language)
    }
}
