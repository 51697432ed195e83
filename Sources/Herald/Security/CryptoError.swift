/// Why a cryptographic step failed: libsodium did not start, hashing ran out of memory, an intent could not be sealed.
public struct CryptoError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}
