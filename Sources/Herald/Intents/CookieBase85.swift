/// Binary-to-text in 85 symbols that are all legal, unquoted cookie characters (RFC 6265
/// `cookie-octet`, and what Python's `http.cookies` accepts): ZeroMQ's Z85 alphabet.
/// Five characters carry four bytes (25 % overhead against base64's 33 %), which a 2,000-
/// character comment needs to fit the 4 KB cookie.
///
/// Encoded form: one digit saying how many padding bytes were added (0–3), then the Z85 text.
enum CookieBase85 {
    private static let alphabet = Array(
        "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#".utf8)
    private static let values: [UInt8: UInt32] = Dictionary(
        uniqueKeysWithValues: alphabet.enumerated().map { ($0.element, UInt32($0.offset)) })

    static func encode(_ bytes: [UInt8]) -> String {
        let padding = (4 - bytes.count % 4) % 4
        let padded = bytes + [UInt8](repeating: 0, count: padding)
        var out: [UInt8] = [UInt8(ascii: "0") + UInt8(padding)]
        out.reserveCapacity(1 + padded.count / 4 * 5)
        for start in stride(from: 0, to: padded.count, by: 4) {
            var value =
                UInt32(padded[start]) << 24 | UInt32(padded[start + 1]) << 16 | UInt32(padded[start + 2]) << 8
                | UInt32(padded[start + 3])
            var chunk = [UInt8](repeating: 0, count: 5)
            for index in stride(from: 4, through: 0, by: -1) {
                chunk[index] = alphabet[Int(value % 85)]
                value /= 85
            }
            out.append(contentsOf: chunk)
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Nil for text that is not exactly an encoding made by `encode`.
    static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard let first = characters.first, first >= UInt8(ascii: "0"), first <= UInt8(ascii: "3"),
            (characters.count - 1) % 5 == 0
        else { return nil }
        let padding = Int(first - UInt8(ascii: "0"))
        var bytes: [UInt8] = []
        bytes.reserveCapacity((characters.count - 1) / 5 * 4)
        for start in stride(from: 1, to: characters.count, by: 5) {
            var value: UInt64 = 0
            for character in characters[start..<start + 5] {
                guard let digit = values[character] else { return nil }
                value = value * 85 + UInt64(digit)
            }
            guard value <= UInt64(UInt32.max) else { return nil }
            bytes.append(contentsOf: [
                UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF),
            ])
        }
        guard padding <= bytes.count, bytes.suffix(padding).allSatisfy({ $0 == 0 }) else { return nil }
        return Array(bytes.dropLast(padding))
    }
}
