/// A pending action captured from an anonymous POST: what to do, on what, with which
/// form fields, where to return, and for how long it may still be performed.
struct Intent: Codable, Equatable, Sendable {
    /// The name the route was declared resumable under (`like`, `comment`…).
    var action: String
    /// Route parameters of the captured request (`slug`).
    var parameters: [String: String]
    /// Form fields of the captured request, in order, without the CSRF token.
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

    enum CodingKeys: String, CodingKey {
        case action = "a"
        case parameters = "p"
        case fields = "f"
        case returnPath = "r"
        case issuedAt = "i"
        case expiresAt = "e"
        case id = "n"
        case parked = "k"
    }
}
