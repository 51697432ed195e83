#if canImport(Glibc)
    import Glibc
#endif

/// systemd's readiness protocol without libsystemd: under `Type=notify`, systemd sets
/// `NOTIFY_SOCKET` to a datagram socket's path (or, starting with `@`, an abstract one), and
/// `READY=1` sent there says the service is up — here, once it is listening — and `STOPPING=1`
/// that it is shutting down. Without `NOTIFY_SOCKET` (not under systemd) it does nothing.
enum SystemdNotify {
    /// Sends `state`; false when there is no socket or the send failed (never fatal).
    @discardableResult
    static func send(_ state: String, environment: [String: String]) -> Bool {
        guard let path = environment["NOTIFY_SOCKET"], !path.isEmpty, path.utf8.count < 108 else { return false }
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        if bytes.first == UInt8(ascii: "@") { bytes[0] = 0 }  // abstract namespace
        let length = MemoryLayout<sa_family_t>.size + bytes.count
        withUnsafeMutableBytes(of: &address.sun_path) { buffer in
            for (index, byte) in bytes.enumerated() { buffer[index] = byte }
        }
        let message = Array(state.utf8)
        let sent = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { socketAddress in
                message.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, 0, socketAddress, socklen_t(length)) }
            }
        }
        return sent == message.count
    }
}
