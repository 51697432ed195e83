import Synchronization

/// One request's CSRF binding: the session, the browser's own random id (its `herald_csrf`
/// cookie), or — for a first visit — a new random id made only when something needs it (a form's
/// token, or a pending action that must record which browser began it).
final class CSRFBinding: @unchecked Sendable {
    /// Nil for the page cache's marker binding, which makes no tokens and accepts none.
    private let tokens: CSRFTokens?
    private var binding: String?
    /// The browser id the request presented (a well-formed `herald_csrf` cookie), logged in or not.
    private var presentedBrowserID: String?
    /// A session cookie the request presented that is no longer valid (expired, or ended):
    /// forms rendered while it was valid carry tokens bound to it, and they are still accepted,
    /// so that a save made after a long edit is captured rather than refused. It proves what any
    /// token proves — the sender holds this browser's cookie and a page this site gave it.
    private let staleSession: String?
    /// Set when this request made a new browser id, which the response must then set as a cookie.
    private(set) var newAnonymousID: String?
    private var cachedToken: String?

    init(tokens: CSRFTokens, session: String?, browserID: String?, staleSession: String? = nil) {
        self.tokens = tokens
        self.binding = session.map { "s:" + $0 } ?? browserID.map { "a:" + $0 }
        self.presentedBrowserID = browserID
        self.staleSession = staleSession
    }

    /// A binding whose token is given (the page cache's marker); it accepts nothing.
    init(fixedToken: String) {
        self.tokens = nil
        self.binding = nil
        self.staleSession = nil
        self.cachedToken = fixedToken
    }

    var token: String {
        if let cachedToken { return cachedToken }
        let presented = binding != nil
        let token = tokens?.token(binding: resolvedBinding, remember: presented) ?? ""
        cachedToken = token
        return token
    }

    var resolvedBinding: String {
        if let binding { return binding }
        let id = browserID
        binding = "a:" + id
        return "a:" + id
    }

    /// This browser's random id: the one it presented, or a new one (then set by the response).
    var browserID: String {
        if let id = presentedBrowserID ?? newAnonymousID { return id }
        let fresh = Sodium.base64URL(Sodium.randomBytes(16))
        newAnonymousID = fresh
        return fresh
    }

    /// After a login inside this request: forms rendered from now on are bound to the new session.
    /// The browser id stays: it names this browser, logged in or not.
    func rebind(toSession token: String) {
        binding = "s:" + token
        cachedToken = nil
    }

    /// Whether `presented` is valid for this visitor (false for a first visit: there is nothing to match).
    func accepts(_ presented: String?) -> Bool {
        guard let tokens else { return false }
        if let binding, tokens.isValid(presented, binding: binding) { return true }
        if let staleSession, tokens.isValid(presented, binding: "s:" + staleSession) { return true }
        return false
    }
}

/// Form tokens for browsers that send neither `Sec-Fetch-Site` nor `Origin`.
///
/// A token is an HMAC of the visitor's binding (their session token once logged in, else
/// their anonymous cookie) under the site key, so it cannot be made without both the key
/// and the visitor's cookie, and it changes when the session does.
struct CSRFTokens: Sendable {
    let keys: SecretKeys
    /// Tokens already made for bindings a visitor presented (their session or anonymous cookie):
    /// the same reader asks for the same token on every page, and an HMAC costs more than the
    /// rest of serving a cached page. Bounded; emptied when full.
    private let known = KnownTokens()
    /// How many remembered tokens are kept before the memory is emptied.
    static let rememberedCapacity = KnownTokens.capacity

    init(keys: SecretKeys) {
        self.keys = keys
    }

    /// `remember`: keep it for the next request with the same binding (not for a binding made
    /// just now, which a first visit may never present again).
    func token(binding: String, remember: Bool = false) -> String {
        if remember, let token = known.token(for: binding) { return token }
        let token = Sodium.base64URL(mac(binding, key: keys.current))
        if remember { known.keep(token, for: binding) }
        return token
    }

    /// Accepts tokens made under the current or a previous key, compared in constant time.
    func isValid(_ token: String?, binding: String) -> Bool {
        guard let token, token.utf8.count <= 64, let presented = Sodium.decodeBase64URL(token) else { return false }
        return ([keys.current] + keys.previous).contains { key in
            Sodium.constantTimeEquals(presented, mac(binding, key: key))
        }
    }

    private func mac(_ binding: String, key: SecretKeys.Key) -> [UInt8] {
        Sodium.hmacSHA256(key: key.bytes, Array("csrf|".utf8) + Array(binding.utf8))
    }
}

/// The memory behind `CSRFTokens.token(binding:remember:)`.
private final class KnownTokens: Sendable {
    static let capacity = 4096
    private let tokens = Mutex<[String: String]>([:])

    func token(for binding: String) -> String? {
        tokens.withLock { $0[binding] }
    }

    func keep(_ token: String, for binding: String) {
        tokens.withLock { tokens in
            if tokens.count >= Self.capacity { tokens.removeAll(keepingCapacity: true) }
            tokens[binding] = token
        }
    }
}
