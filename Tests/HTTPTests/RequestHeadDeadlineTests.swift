import Foundation
import TestSupport
import Testing
import TextSupport

@testable import HTTP

#if canImport(Glibc)
    import Glibc
#endif

/// Slow request heads (issue #14): the request line and headers must be complete within
/// `requestHeadDeadlineSeconds` of their start, however steadily the bytes trickle in.
@Suite struct RequestHeadDeadlineTests {
    /// 2 s, so that each test takes a few seconds; the sweeper then looks every 0.5 s.
    static let deadline = 2

    @Test func trickledHeadIsCutOffWhileOthersAreServed() throws {
        let fixture = try ServerFixture { $0.requestHeadDeadlineSeconds = Self.deadline }
        let slow = try RawHTTPConnection(port: fixture.port)
        let outcome = try trickle(
            on: slow, ["GET /hello HTTP/1.1\r\n", "Host: x\r\n"] + (1...12).map { "X-Trickle-\($0): a\r\n" },
            every: 0.5
        ) { () throws in
            // Meanwhile a normal request on another connection is answered.
            #expect(try TestClient(port: fixture.port).get("/hello").status == 200)
        }
        let closedAfter = try #require(outcome.closedAfter, "a head trickling for 6 s was never cut off")
        #expect(closedAfter >= Double(Self.deadline) - 0.1)
        #expect(closedAfter < Double(Self.deadline) + 2)
        #expect(outcome.received.isEmpty, "cut off without an answer")
    }

    @Test func aSlowHeadIsServedWithinTheDeadlineAndCutOffBeyondIt() throws {
        let fixture = try ServerFixture { $0.requestHeadDeadlineSeconds = Self.deadline }
        // 1.2 s in four pieces: within the deadline, answered.
        let patient = try RawHTTPConnection(port: fixture.port)
        for piece in ["GET /hello HTTP/1.1\r\n", "Host: x\r\n", "X-A: 1\r\n"] {
            try patient.send(piece)
            usleep(400_000)
        }
        try patient.send("\r\n")
        #expect(try patient.readResponse().text == "hello")

        // The same pace for longer: each piece is well inside the idle timeout, yet the whole
        // head is not, and it is the whole head that counts.
        let slow = try RawHTTPConnection(port: fixture.port)
        let pieces = ["GET /hel", "lo HTTP/1.1\r\n", "Host: x\r\n"] + (1...12).map { "X-\($0): 1\r\n" } + ["\r\n"]
        let outcome = try trickle(on: slow, pieces, every: 0.4)
        #expect(outcome.closedAfter != nil)
        #expect(outcome.received.isEmpty)
    }

    @Test func keptAliveConnectionWaitsFreelyThenTimesItsNextHead() throws {
        let fixture = try ServerFixture { $0.requestHeadDeadlineSeconds = Self.deadline }
        let connection = try RawHTTPConnection(port: fixture.port)
        try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().status == 200)
        // Longer than the head deadline: waiting between requests is the idle timeout's business.
        usleep(UInt32(Self.deadline) * 1_000_000 + 1_000_000)
        try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().status == 200)
        usleep(1_000_000)
        try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().status == 200)

        // The next head is timed from its first byte: trickled, it is cut off like a first one.
        let outcome = try trickle(
            on: connection, ["GET /hello HTTP/1.1\r\n", "Host: x\r\n"] + (1...12).map { "X-\($0): 1\r\n" }, every: 0.5)
        let closedAfter = try #require(outcome.closedAfter)
        #expect(closedAfter < Double(Self.deadline) + 2)
        #expect(outcome.received.isEmpty)
    }

    /// The registry alone, on a real TCP connection, so that the kernel's view of "data arrived"
    /// is the real one.
    @Test func registryTimesHeadsOnlyAndForgetsClosedSockets() throws {
        let listener = try ListeningSocket.bind(host: "127.0.0.1", port: 0)
        defer { close(listener) }
        let port = ListeningSocket.boundPort(listener)
        let client = try RawHTTPConnection(port: port)
        let socket = accept(listener, nil, nil)
        try #require(socket >= 0)
        defer { close(socket) }
        let registry = RequestHeadDeadline(seconds: 1)
        let now = monotonicMicroseconds
        let later = now() + 60_000_000

        registry.connectionOpened(socket)
        registry.headersComplete(socket)
        #expect(registry.sweep(now: later) == 0, "a complete head (body, pool, response) is never cut")

        registry.requestCompleted(socket)
        usleep(1_200_000)
        #expect(registry.sweep(now: now()) == 0, "idle between requests: left to the idle timeout")
        #expect(registry.phase(of: socket).map { if case .betweenRequests = $0 { true } else { false } } == true)

        let sent = now()
        try client.send("G")
        usleep(100_000)
        #expect(registry.sweep(now: now()) == 0)
        guard case .head(let since)? = registry.phase(of: socket) else {
            Issue.record("the first byte of the next request did not start the clock")
            return
        }
        #expect(abs(since - sent) < 60_000)
        #expect(registry.sweep(now: since + 1_100_000) == 1)
        #expect(client.receiveUntilClosed(within: 2).closed)

        // A closed connection is forgotten: its socket number, reused, is not touched.
        let other = try RawHTTPConnection(port: port)
        let otherSocket = accept(listener, nil, nil)
        try #require(otherSocket >= 0)
        defer { close(otherSocket) }
        registry.connectionOpened(otherSocket, now: now() - 10_000_000)
        registry.connectionClosed(otherSocket)
        #expect(registry.sweep(now: later) == 0)
        #expect(!other.receiveUntilClosed(within: 0.2).closed)
    }
}

/// Sends `pieces` one every `interval` seconds until the server closes the connection (running
/// `meanwhile` after each); says after how long it closed it (nil: never) and what it sent.
private func trickle(
    on connection: RawHTTPConnection, _ pieces: [String], every interval: Double, meanwhile: () throws -> Void = {}
) throws -> (closedAfter: Double?, received: [UInt8]) {
    let started = Date()
    var received: [UInt8] = []
    for piece in pieces {
        // A send can fail once the server has closed its end; the read below says so.
        try? connection.send(piece)
        try meanwhile()
        let (bytes, closed) = connection.receiveUntilClosed(within: interval)
        received += bytes
        if closed { return (Date().timeIntervalSince(started), received) }
    }
    return (nil, received)
}
