#if canImport(Glibc)
    import Glibc
#endif

/// The client address as rate limits count it: an IPv4 address as it is, an IPv6 address by
/// its /64 prefix. A /64 is what one subscriber (or one attacker) gets, and a client that may
/// pick any of its 2^64 addresses must not get 2^64 times the limit.
enum ClientAddressKey {
    static func key(for address: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 16)
        guard address.contains(":"), inet_pton(AF_INET6, address, &bytes) == 1 else { return address }
        // An IPv4 client seen through an IPv6 socket (::ffff:a.b.c.d) is that IPv4 address.
        if bytes[0..<10].allSatisfy({ $0 == 0 }) && bytes[10] == 0xFF && bytes[11] == 0xFF {
            return bytes[12..<16].map { String($0) }.joined(separator: ".")
        }
        let groups = stride(from: 0, to: 8, by: 2).map {
            String(UInt16(bytes[$0]) << 8 | UInt16(bytes[$0 + 1]), radix: 16)
        }
        return groups.joined(separator: ":") + "::/64"
    }
}
