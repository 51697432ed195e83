import Foundation

/// The keys Herald signs with: one current key, plus previous keys accepted for
/// verification only, so that keys can be rotated without voiding what is in flight.
///
/// Keys come from `HERALD_SECRET` (and `HERALD_PREVIOUS_SECRETS`, comma-separated), shared by
/// every server of a site; without them, a random key is generated into the data directory
/// (mode 0600) on first start and reused after.
public struct SecretKeys: Sendable {
    public struct Key: Sendable {
        /// A short public name for the key, carried next to signatures so the verifier knows
        /// which key to try; derived from the key, so it reveals nothing usable.
        public let id: String
        let bytes: [UInt8]

        /// Any secret text becomes a 32-byte key through SHA-256.
        init(secret: [UInt8]) {
            bytes = Sodium.sha256(Array("herald-key:".utf8) + secret)
            id = String(Sodium.hex(Sodium.sha256(bytes)).prefix(8))
        }
    }

    public let current: Key
    public let previous: [Key]

    public init(current: String, previous: [String] = []) {
        self.current = Key(secret: Array(current.utf8))
        self.previous = previous.filter { !$0.isEmpty }.map { Key(secret: Array($0.utf8)) }
    }

    /// The key with this id, current or previous.
    public func key(id: String) -> Key? {
        if current.id == id { return current }
        return previous.first { $0.id == id }
    }

    public static let keyFileName = "secret.key"
    static let minimumSecretBytes = 16

    /// `HERALD_PREVIOUS_SECRETS` entries, trimmed (a space after a comma is not part of a key)
    /// and held to `HERALD_SECRET`'s length rule: a short one stops start-up rather than
    /// quietly accepting signatures made with a guessable key.
    static func checkedPrevious(_ previous: [String]) throws -> [String] {
        try previous.enumerated().compactMap { index, entry in
            let secret = entry.trimmingCharacters(in: .whitespacesAndNewlines)
            if secret.isEmpty { return nil }
            guard secret.utf8.count >= minimumSecretBytes else {
                throw UsageError(
                    description:
                        "HERALD_PREVIOUS_SECRETS: entry \(index + 1) is shorter than 16 characters; every previous key must be as long as HERALD_SECRET must be"
                )
            }
            return secret
        }
    }

    /// From the environment, else from (or into) `dataDirectory/secret.key`.
    public static func load(secret: String?, previous: [String], dataDirectory: String) throws -> SecretKeys {
        let previous = try checkedPrevious(previous)
        if let secret, !secret.isEmpty {
            guard secret.utf8.count >= minimumSecretBytes else {
                throw UsageError(description: "HERALD_SECRET must be at least 16 characters (32 random bytes are best)")
            }
            return SecretKeys(current: secret, previous: previous)
        }
        let path = dataDirectory + "/" + keyFileName
        if let existing = FileManager.default.contents(atPath: path), existing.count >= 32 {
            return SecretKeys(current: String(decoding: existing, as: UTF8.self), previous: previous)
        }
        let generated = Sodium.base64URL(Sodium.randomBytes(32))
        // Created with 0600 from the start: never readable by others, not even for a moment.
        guard
            FileManager.default.createFile(
                atPath: path, contents: Data(generated.utf8), attributes: [.posixPermissions: 0o600])
        else {
            throw UsageError(description: "cannot write the secret key file \(path)")
        }
        return SecretKeys(current: generated, previous: previous)
    }
}
