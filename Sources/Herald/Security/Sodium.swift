internal import CSodium

/// The few libsodium primitives Herald uses, as plain Swift. No C type leaves this file.
public enum Sodium {
    /// libsodium must be initialised once before use; `sodium_init` is idempotent and thread-safe.
    private static let initialised: Bool = sodium_init() >= 0

    static func ensureInitialised() throws(CryptoError) {
        guard initialised else { throw CryptoError("libsodium failed to initialise") }
    }

    /// `count` bytes from the operating system's CSPRNG.
    public static func randomBytes(_ count: Int) -> [UInt8] {
        _ = initialised
        var bytes = [UInt8](repeating: 0, count: count)
        bytes.withUnsafeMutableBytes { buffer in
            if let base = buffer.baseAddress { randombytes_buf(base, buffer.count) }
        }
        return bytes
    }

    public static func sha256(_ message: [UInt8]) -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: Int(crypto_hash_sha256_bytes()))
        _ = crypto_hash_sha256(&digest, message, UInt64(message.count))
        return digest
    }

    /// HMAC-SHA256 of `message` under a 32-byte `key`.
    public static func hmacSHA256(key: [UInt8], _ message: [UInt8]) -> [UInt8] {
        var state = crypto_auth_hmacsha256_state()
        var mac = [UInt8](repeating: 0, count: Int(crypto_auth_hmacsha256_bytes()))
        _ = crypto_auth_hmacsha256_init(&state, key, key.count)
        _ = crypto_auth_hmacsha256_update(&state, message, UInt64(message.count))
        _ = crypto_auth_hmacsha256_final(&state, &mac)
        return mac
    }

    /// Compares secrets in time that depends only on their length, not their contents.
    public static func constantTimeEquals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return sodium_memcmp(a, b, a.count) == 0
    }

    /// URL-safe base64 without padding (RFC 4648 §5), as used in cookies.
    public static func base64URL(_ bytes: [UInt8]) -> String {
        let variant = Int32(sodium_base64_VARIANT_URLSAFE_NO_PADDING)
        let length = sodium_base64_encoded_len(bytes.count, variant)
        var output = [CChar](repeating: 0, count: length)
        _ = sodium_bin2base64(&output, length, bytes, bytes.count, variant)
        return String(decoding: output.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Decodes URL-safe unpadded base64; nil for anything else (including trailing garbage).
    public static func decodeBase64URL(_ text: String, maximumBytes: Int = 16 * 1024) -> [UInt8]? {
        let length = text.utf8.count
        guard length <= maximumBytes * 4 / 3 + 4 else { return nil }
        var output = [UInt8](repeating: 0, count: length * 3 / 4 + 3)
        var decodedLength = 0
        // With no end pointer, libsodium fails on any character outside the alphabet
        // instead of stopping there, so a valid result means the whole text was consumed.
        let status = sodium_base642bin(
            &output, output.count, text, length, nil, &decodedLength, nil,
            Int32(sodium_base64_VARIANT_URLSAFE_NO_PADDING))
        guard status == 0 else { return nil }
        return Array(output.prefix(decodedLength))
    }

    public static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}
