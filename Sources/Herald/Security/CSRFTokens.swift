/// Form tokens for browsers that send neither `Sec-Fetch-Site` nor `Origin`.
///
/// A token is an HMAC of the visitor's binding (their session token once logged in, else
/// their anonymous cookie) under the site key, so it cannot be made without both the key
/// and the visitor's cookie, and it changes when the session does.
struct CSRFTokens: Sendable {
    let keys: SecretKeys

    func token(binding: String) -> String {
        Sodium.base64URL(mac(binding, key: keys.current))
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
