import Foundation

/// The `herald_intent` cookie format:
///
///     1~<key id>~<base85(brotli(JSON))>~<base85(HMAC-SHA256)>
///
/// The tag covers everything before it (version and key id included), under the key the id
/// names; previous keys still verify during a rotation. The payload is compressed before it
/// is signed so that a 2,000-character comment in any script fits the 4 KB cookie; measured
/// on 2,000 characters of Chinese prose with emoji, deflate + base64url came to ~4,300 bytes,
/// Brotli + base85 (`CookieBase85`) to ~3,900.
struct IntentCodec: Sendable {
    static let version = "1"
    /// The whole cookie value; browsers keep at most ~4 KB per cookie, name and attributes included.
    static let maximumCookieBytes = 4050
    /// How long after its capture an intent may be performed.
    static let maximumLifetime = 15 * 60
    /// How long the cookie is kept: an authentic intent too old to perform still brings back the
    /// text it carries (SPEC: text is never silently dropped), for up to a day.
    static let keptSeconds = 24 * 3600
    /// Field text (names and values, UTF-8) larger than this is not even compressed: no valid
    /// resumable input comes near it (a 2,000-code-point comment is at most 8 KB), and it bounds
    /// what an anonymous POST can make the compressor do.
    static let maximumFieldBytes = 16 * 1024
    /// Brotli is run at quality 5 first (~0.3 ms for a 2,000-character comment), then, only when
    /// that came close, at 11 (~7 ms; 6–18 % smaller on the sample comments, which is what fits
    /// 2,000 characters of Chinese with emoji). Further off than `strongQualityReach`, quality 11
    /// could not make it fit either, so its cost is never paid for hopeless input.
    static let fastQuality: Int32 = 5
    static let strongQuality: Int32 = 11
    static let strongQualityReach = 1.25

    enum VoidReason: Error, Equatable, CustomStringConvertible {
        case oversized, malformed, unknownVersion, unknownKey, badSignature, expired

        var description: String {
            switch self {
            case .oversized: "oversized"
            case .malformed: "malformed"
            case .unknownVersion: "unknown version"
            case .unknownKey: "signed with an unknown key"
            case .badSignature: "signature does not match"
            case .expired: "expired"
            }
        }

        /// The reason as a metrics label.
        var metricLabel: String {
            switch self {
            case .oversized: "oversized"
            case .malformed: "malformed"
            case .unknownVersion: "unknown-version"
            case .unknownKey: "unknown-key"
            case .badSignature: "bad-signature"
            case .expired: "expired"
            }
        }
    }

    let keys: SecretKeys

    /// The signed cookie value, or nil when it cannot fit `maximumCookieBytes`.
    func encode(_ intent: Intent) throws -> String? {
        let json = Array(try JSONEncoder().encode(intent))
        let fast = try signedCookie(json, quality: Self.fastQuality)
        if fast.utf8.count <= Self.maximumCookieBytes { return fast }
        guard Double(fast.utf8.count) <= Double(Self.maximumCookieBytes) * Self.strongQualityReach else { return nil }
        let strong = try signedCookie(json, quality: Self.strongQuality)
        return strong.utf8.count <= Self.maximumCookieBytes ? strong : nil
    }

    private func signedCookie(_ json: [UInt8], quality: Int32) throws -> String {
        guard let compressed = Brotli.compress(json, quality: quality) else {
            throw CryptoError("cannot compress the intent")
        }
        let signed = Self.version + "~" + keys.current.id + "~" + CookieBase85.encode(compressed)
        return signed + "~" + CookieBase85.encode(tag(signed, key: keys.current))
    }

    func decode(_ cookie: String, now: Int) -> Result<Intent, VoidReason> {
        guard cookie.utf8.count <= Self.maximumCookieBytes else { return .failure(.oversized) }
        let parts = cookie.split(separator: "~", omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 4 else { return .failure(.malformed) }
        guard parts[0] == Self.version else { return .failure(.unknownVersion) }
        guard let key = keys.key(id: parts[1]) else { return .failure(.unknownKey) }
        let signed = parts[0] + "~" + parts[1] + "~" + parts[2]
        guard let presented = CookieBase85.decode(parts[3]),
            Sodium.constantTimeEquals(presented, tag(signed, key: key))
        else { return .failure(.badSignature) }
        guard let compressed = CookieBase85.decode(parts[2]),
            let json = Brotli.decompress(compressed, limit: 64 * 1024),
            let intent = try? JSONDecoder().decode(Intent.self, from: Data(json))
        else { return .failure(.malformed) }
        // Authentic and not older than a day: returned even past `expiresAt` (the caller does not
        // perform it then, but gives back its text).
        guard now < intent.issuedAt + Self.keptSeconds, intent.expiresAt - intent.issuedAt <= Self.maximumLifetime
        else { return .failure(.expired) }
        return .success(intent)
    }

    private func tag(_ signed: String, key: SecretKeys.Key) -> [UInt8] {
        Sodium.hmacSHA256(key: key.bytes, Array("intent|".utf8) + Array(signed.utf8))
    }
}
