import Foundation
import HTTP
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// One client address cannot hold more than `connectionsPerAddressLimit` connections (issue #14).
@Suite struct PerAddressLimitTests {
    @Test func connectionBeyondTheLimitIsRefusedWhileTheOthersWork() throws {
        let fixture = try ServerFixture { $0.connectionsPerAddressLimit = 3 }
        let open = try (0..<3).map { _ in try RawHTTPConnection(port: fixture.port) }
        for connection in open {
            try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().status == 200)
        }

        // The kernel completes the handshake; libmicrohttpd closes it at once, unanswered.
        let fourth = try RawHTTPConnection(port: fixture.port)
        try? fourth.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let refused = fourth.receiveUntilClosed(within: 2)
        #expect(refused.closed)
        #expect(refused.bytes.isEmpty)

        // The three still work (kept alive), and a place freed is a place taken.
        for connection in open {
            try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try connection.readResponse().status == 200)
        }
        try open[0].send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(try open[0].readResponse().status == 200)
        #expect(open[0].isClosedByServer(within: 2))
        var served = false
        for _ in 0..<20 where !served {
            // libmicrohttpd frees the place when it has cleaned the closed connection up.
            usleep(50_000)
            let next = try RawHTTPConnection(port: fixture.port)
            try? next.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            served = (try? next.readResponse().status) == 200
        }
        #expect(served)
    }
}
