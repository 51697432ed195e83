/// What Herald knows about the request beyond the request itself, filled in by
/// middleware and read by handlers and views. Every handler has the same shape:
/// `(Request, inout RequestContext) throws -> Response`.
public struct RequestContext: Sendable {
    /// The logged-in reader, or nil for an anonymous visitor.
    public var user: User?
    /// The session cookie's token, when it belongs to a live session.
    public var sessionToken: String?
    /// Makes the token every rendered form carries, on first use only: most responses
    /// (files, the feed, redirects) render no form and never pay for it.
    var csrf: CSRFBinding?
    /// The token every rendered form carries (bound to the session, or to the anonymous cookie).
    public var csrfToken: String { csrf?.token ?? "" }
    /// A one-shot message arriving with this request (`role="status"`).
    public var flash: String?
    /// A one-shot message for the next page, set by a handler before it redirects.
    public var nextFlash: String?
    /// The client's address: the socket's, or the one a trusted proxy reports. Used for throttling.
    public var clientAddress = ""
    /// The request came over HTTPS (directly, or from a trusted proxy saying so): cookies get `Secure`.
    public var isSecure = false
    /// The page asked for (path and query), for the header's "Log in" and "Register" links.
    public var requestTarget = "/"

    /// The interface language (`LanguageNegotiation`) and its messages.
    public private(set) var language: InterfaceLanguage = .english
    public private(set) var messages: Messages = .keysOnly

    public init() {}

    /// Starts a request in the site's language, before `LanguageNegotiation` reads the reader's.
    init(messages: Messages) {
        use(messages)
    }

    mutating func use(_ messages: Messages) {
        self.messages = messages
        language = messages.language
    }

    /// The text of `key` in the request's language.
    public func text(_ key: String) -> String { messages[key] }

    /// The text of `key` with its `{placeholders}` filled, in the request's language.
    public func text(_ key: String, _ values: KeyValuePairs<String, String>) -> String {
        messages.format(key, values)
    }

    public var readerName: String? { user?.username }
}
