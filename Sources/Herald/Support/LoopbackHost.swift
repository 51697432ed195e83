#if canImport(Glibc)
    import Glibc
#endif

/// Whether a host name or address never leaves this machine: `localhost`, 127.0.0.0/8, `::1` (in
/// brackets too, as URLs write it) and 127.0.0.0/8 seen through IPv6 (`::ffff:127.0.0.1`).
/// What may go there in clear text (mail to a local relay), and what a public server is not
/// listening on (`herald serve` needs its public address otherwise).
enum LoopbackHost {
    static func contains(_ host: String) -> Bool {
        var name = Substring(host)
        if name.hasPrefix("[") && name.hasSuffix("]") { name = name.dropFirst().dropLast() }
        if name.lowercased() == "localhost" { return true }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(name), &v4) == 1 {
            return UInt32(bigEndian: v4.s_addr) >> 24 == 127
        }
        var v6 = [UInt8](repeating: 0, count: 16)
        guard inet_pton(AF_INET6, String(name), &v6) == 1 else { return false }
        if v6[0..<15].allSatisfy({ $0 == 0 }) && v6[15] == 1 { return true }
        let mapped = v6[0..<10].allSatisfy { $0 == 0 } && v6[10] == 0xFF && v6[11] == 0xFF
        return mapped && v6[12] == 127
    }
}
