/// A pending action captured from an anonymous POST: what to do, on what, with which
/// form fields, where to return, for how long it may still be performed, and which browser
/// began it.
struct Intent: Codable, Equatable, Sendable {
    /// The name of the resumable action (`like`, `comment`…).
    var action: String
    /// Route parameters of the captured request (`slug`).
    var parameters: [String: String]
    /// The kept form fields, in order (never a password, never the CSRF token).
    var fields: [[String]]
    /// Where the reader returns once it is done (a local path).
    var returnPath: String
    var issuedAt: Int
    var expiresAt: Int
    /// Random; recorded when performed so a copied cookie cannot perform it twice.
    var id: String
    /// When the form was too large for the cookie: the id of its parked copy (`ParkedFormStore`),
    /// which holds the fields instead.
    var parked: String? = nil
    /// `BrowserID.digest` of the browser that began it: performed only where login completes in
    /// that same browser. Nil only in intents made before browsers were recorded: never performed.
    var browser: String? = nil

    enum CodingKeys: String, CodingKey {
        case action = "a"
        case parameters = "p"
        case fields = "f"
        case returnPath = "r"
        case issuedAt = "i"
        case expiresAt = "e"
        case id = "n"
        case parked = "k"
        case browser = "b"
    }
}
