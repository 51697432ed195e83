#if canImport(Glibc)
    import Glibc
#endif

/// The listening socket, bound by us rather than by libmicrohttpd so that we know
/// the real port when asked for port 0 and can choose IPv4 or IPv6 from `--host`.
enum ListeningSocket {
    static func bind(host: String, port: Int) throws -> Int32 {
        var hints = addrinfo()
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var results: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &results)
        guard status == 0, let first = results else {
            throw ServerError(description: "cannot resolve --host \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(results) }

        let fd = socket(first.pointee.ai_family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ServerError(description: "socket(): \(String(cString: strerror(errno)))") }
        var yes: Int32 = 1
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        guard Glibc.bind(fd, first.pointee.ai_addr, first.pointee.ai_addrlen) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ServerError(description: "cannot listen on \(host):\(port): \(reason)")
        }
        guard listen(fd, 1024) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ServerError(description: "listen(): \(reason)")
        }
        return fd
    }

    static func boundPort(_ fd: Int32) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let ok = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) == 0 }
        }
        guard ok else { return 0 }
        return withUnsafePointer(to: &storage) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { port(of: $0) }
        }
    }

    static func port(of address: UnsafePointer<sockaddr>) -> Int {
        switch Int32(address.pointee.sa_family) {
        case AF_INET:
            return address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin_port))
            }
        case AF_INET6:
            return address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin6_port))
            }
        default:
            return 0
        }
    }

    /// The numeric text form of an IPv4 or IPv6 address.
    static func numericHost(_ address: UnsafePointer<sockaddr>) -> String {
        // On the stack: this runs for every request.
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(INET6_ADDRSTRLEN)) { buffer in
            guard let base = buffer.baseAddress else { return "" }
            let written: UnsafePointer<CChar>?
            switch Int32(address.pointee.sa_family) {
            case AF_INET:
                written = address.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { ipv4 in
                    var raw = ipv4.pointee.sin_addr
                    return inet_ntop(AF_INET, &raw, base, socklen_t(buffer.count))
                }
            case AF_INET6:
                written = address.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { ipv6 in
                    var raw = ipv6.pointee.sin6_addr
                    return inet_ntop(AF_INET6, &raw, base, socklen_t(buffer.count))
                }
            default:
                written = nil
            }
            return written.map { String(cString: $0) } ?? ""
        }
    }
}
