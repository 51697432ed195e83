/// The token in a reply mail's one-click unsubscribe link (RFC 8058): `ID.MAC`, the account's id
/// and an HMAC of it and the account's creation time under the site key. Mail providers post it
/// without cookies, so the token is the only proof; it cannot be made without the key, names one
/// account (and not a later one given the same id: the creation time differs), survives key
/// rotation through the previous keys, and is compared in constant time. Nothing is stored.
struct UnsubscribeTokens: Sendable {
    let keys: SecretKeys

    /// At most this long: a decimal id, a dot and 43 characters of base64url.
    static let maximumLength = 64

    func token(userID: Int, createdAt: Int) -> String {
        "\(userID)." + Sodium.base64URL(mac(userID: userID, createdAt: createdAt, key: keys.current))
    }

    /// The account a well-formed token names (not yet checked: see `isValid`); nil when malformed.
    static func userID(in token: String) -> Int? {
        guard token.utf8.count <= maximumLength, let dot = token.firstIndex(of: ".") else { return nil }
        let digits = token[..<dot]
        guard !digits.isEmpty, digits.count <= 18, digits.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            return nil
        }
        return Int(digits)
    }

    /// Whether `token` was made for this account, under the current or a previous key.
    func isValid(_ token: String, userID: Int, createdAt: Int) -> Bool {
        guard Self.userID(in: token) == userID, let dot = token.firstIndex(of: "."),
            let presented = Sodium.decodeBase64URL(String(token[token.index(after: dot)...]), maximumBytes: 64),
            presented.count == 32
        else { return false }
        return ([keys.current] + keys.previous).contains { key in
            Sodium.constantTimeEquals(presented, mac(userID: userID, createdAt: createdAt, key: key))
        }
    }

    private func mac(userID: Int, createdAt: Int, key: SecretKeys.Key) -> [UInt8] {
        Sodium.hmacSHA256(key: key.bytes, Array("reply-mail-unsubscribe|\(userID)|\(createdAt)".utf8))
    }
}
