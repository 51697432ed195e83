import HTTP
import TextSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A parsed HTTP response as a test sees it.
public struct TestResponse: Sendable {
    public var status: Int
    public var headers: HTTPHeaders
    public var body: [UInt8]

    public var text: String { String(decoding: body, as: UTF8.self) }
    public subscript(header: String) -> String? { headers[header] }
}

public struct TestClientError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// One TCP connection to 127.0.0.1 that speaks HTTP/1.1 by hand, so tests control
/// every byte: keep-alive, malformed framing, slow bodies.
public final class RawHTTPConnection {
    public let fd: Int32
    private var buffer: [UInt8] = []

    /// `from` picks the loopback address the connection comes from (`127.0.0.2`: another client,
    /// as the server counts clients); by default the system's choice, 127.0.0.1.
    public init(port: Int, receiveTimeoutSeconds: Int = 10, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw TestClientError("socket failed") }
        var timeout = timeval(tv_sec: receiveTimeoutSeconds, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            local.sin_addr.s_addr = inet_addr(source)
            let bound = withUnsafePointer(to: &local) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                }
            }
            guard bound == 0 else {
                close(fd)
                throw TestClientError("binding to \(source) failed: errno \(errno)")
            }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw TestClientError("connect to port \(port) failed: errno \(errno)")
        }
    }

    deinit { close(fd) }

    public func send(_ text: String) throws { try send(Array(text.utf8)) }

    public func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes {
                Glibc.send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            guard sent > 0 else { throw TestClientError("send failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads one response. `forHead` means no body follows whatever Content-Length says.
    public func readResponse(forHead: Bool = false) throws -> TestResponse {
        let headerEnd = try readUntil([13, 10, 13, 10])
        let head = String(decoding: buffer[0..<headerEnd], as: UTF8.self)
        buffer.removeFirst(headerEnd + 4)
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false)
        guard !lines.isEmpty else { throw TestClientError("empty response") }
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else {
            throw TestClientError("bad status line: \(head.prefix(80))")
        }
        var headers = HTTPHeaders()
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.add(String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingSpaces())
        }
        var body: [UInt8] = []
        if forHead || status == 304 || status == 204 || (100..<200).contains(status) {
            body = []
        } else if let length = headers["Content-Length"].flatMap({ Int($0) }) {
            try fill(length)
            body = Array(buffer[0..<length])
            buffer.removeFirst(length)
        } else if headers["Transfer-Encoding"]?.lowercased() == "chunked" {
            body = try readChunked()
        } else {
            while try receiveMore() {}
            body = buffer
            buffer = []
        }
        return TestResponse(status: status, headers: headers, body: body)
    }

    /// True when the server has closed the connection (reads EOF) within `seconds`.
    public func isClosedByServer(within seconds: Double = 5) -> Bool {
        // A zero timeval would mean "wait forever": wait at least a millisecond.
        let microseconds = max(1000, Int(seconds * 1_000_000))
        var timeout = timeval(tv_sec: microseconds / 1_000_000, tv_usec: microseconds % 1_000_000)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var byte: UInt8 = 0
        while true {
            let count = recv(fd, &byte, 1, 0)
            if count == 0 { return true }
            if count < 0 { return errno == ECONNRESET }
        }
    }

    /// Whatever the server sends within `seconds`, and whether it closed the connection by then.
    /// Unlike `isClosedByServer` it keeps the bytes, so a test can tell "cut off" from "answered".
    public func receiveUntilClosed(within seconds: Double) -> (bytes: [UInt8], closed: Bool) {
        var bytes = buffer
        buffer = []
        let deadline = monotonicMicroseconds() + Int64(seconds * 1_000_000)
        var chunk = [UInt8](repeating: 0, count: 4096)
        while true {
            // A zero timeval would mean "wait forever": wait at least a millisecond.
            let remaining = max(1000, deadline - monotonicMicroseconds())
            var timeout = timeval(tv_sec: Int(remaining / 1_000_000), tv_usec: Int(remaining % 1_000_000))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 {
                bytes.append(contentsOf: chunk[0..<count])
            } else if count == 0 || errno == ECONNRESET {
                return (bytes, true)
            } else if errno != EINTR || monotonicMicroseconds() >= deadline {
                return (bytes, false)
            }
        }
    }

    private func readChunked() throws -> [UInt8] {
        var body: [UInt8] = []
        while true {
            let lineEnd = try readUntil([13, 10])
            let sizeText = String(decoding: buffer[0..<lineEnd], as: UTF8.self).split(separator: ";").first ?? ""
            buffer.removeFirst(lineEnd + 2)
            guard let size = Int(sizeText, radix: 16) else { throw TestClientError("bad chunk size") }
            if size == 0 {
                _ = try readUntil([13, 10])
                buffer.removeFirst(2)
                return body
            }
            try fill(size + 2)
            body.append(contentsOf: buffer[0..<size])
            buffer.removeFirst(size + 2)
        }
    }

    private func readUntil(_ marker: [UInt8]) throws -> Int {
        var searchFrom = 0
        while true {
            if buffer.count >= marker.count {
                for start in searchFrom...(buffer.count - marker.count)
                where buffer[start..<start + marker.count].elementsEqual(marker) {
                    return start
                }
                searchFrom = buffer.count - marker.count + 1
            }
            guard try receiveMore() else { throw TestClientError("connection closed before a full response") }
        }
    }

    private func fill(_ count: Int) throws {
        while buffer.count < count {
            guard try receiveMore() else { throw TestClientError("connection closed mid-body") }
        }
    }

    private func receiveMore() throws -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        if count < 0 { throw TestClientError("recv failed or timed out: errno \(errno)") }
        if count == 0 { return false }
        buffer.append(contentsOf: chunk[0..<count])
        return true
    }
}

extension String {
    func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " || s.first == "\t" { s = s.dropFirst() }
        while s.last == " " || s.last == "\t" { s = s.dropLast() }
        return String(s)
    }
}
