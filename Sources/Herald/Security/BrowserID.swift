/// A browser's own random id (its `herald_csrf` cookie: 16 random bytes, base64url), and the
/// digest a pending action records of it. The digest, not the id, rides in the intent cookie and
/// in a parked form's row, so neither reveals the cookie that CSRF tokens are bound to.
enum BrowserID {
    static func isWellFormed(_ value: String) -> Bool {
        value.utf8.count == 22 && Sodium.decodeBase64URL(value)?.count == 16
    }

    /// 128 bits of SHA-256 over the id: enough that no other browser's id matches by chance.
    static func digest(_ id: String) -> String {
        Sodium.base64URL(Array(Sodium.sha256(Array("herald-browser|".utf8) + Array(id.utf8)).prefix(16)))
    }

    /// Whether `digest` was made from `id`, compared in constant time.
    static func matches(_ digest: String, id: String?) -> Bool {
        guard let id, isWellFormed(id), let recorded = Sodium.decodeBase64URL(digest, maximumBytes: 64),
            let expected = Sodium.decodeBase64URL(Self.digest(id))
        else { return false }
        return Sodium.constantTimeEquals(recorded, expected)
    }
}
