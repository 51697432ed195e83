internal import CSodium

/// argon2id password hashing (`crypto_pwhash_str`).
public struct PasswordHashing: Sendable {
    /// Work factors. `interactive` is libsodium's recommendation for logins (~64 MiB, a
    /// fraction of a second); `minimum` exists only for tests and is refused unless asked for.
    public enum Cost: Sendable, Equatable {
        case interactive
        case minimum

        var limits: (operations: UInt64, memory: Int) {
            switch self {
            case .interactive: (UInt64(crypto_pwhash_opslimit_interactive()), crypto_pwhash_memlimit_interactive())
            case .minimum: (UInt64(crypto_pwhash_opslimit_min()), crypto_pwhash_memlimit_min())
            }
        }
    }

    public let cost: Cost

    public init(cost: Cost) {
        self.cost = cost
    }

    /// An encoded hash (`$argon2id$v=19$m=…`) that carries its own salt and parameters.
    public func hash(_ password: String) throws(CryptoError) -> String {
        try Sodium.ensureInitialised()
        let limits = cost.limits
        var output = [CChar](repeating: 0, count: crypto_pwhash_strbytes())
        // Form decoding refuses NUL, so the C string is the whole password.
        let status = crypto_pwhash_str(
            &output, password, UInt64(password.utf8.count), limits.operations, limits.memory)
        // Fails only when memory cannot be allocated.
        guard status == 0 else { throw CryptoError("password hashing ran out of memory") }
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    public func verify(_ password: String, against encoded: String) -> Bool {
        guard encoded.utf8.count < crypto_pwhash_strbytes() else { return false }
        var stored = Array(encoded.utf8CString)
        return crypto_pwhash_str_verify(&stored, password, UInt64(password.utf8.count)) == 0
    }

    /// True when `encoded` was made with other parameters than the current cost.
    public func needsRehash(_ encoded: String) -> Bool {
        var stored = Array(encoded.utf8CString)
        let limits = cost.limits
        return crypto_pwhash_str_needs_rehash(&stored, limits.operations, limits.memory) != 0
    }
}
