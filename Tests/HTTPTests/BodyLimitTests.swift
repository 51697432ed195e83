import HTTP
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// Per-route body limits over real sockets: a route may accept more than the server's 64 KiB,
/// and every other route still refuses past 64 KiB before reading the body.
@Suite struct BodyLimitTests {
    /// A server with the default 64 KiB limit, an upload route allowing 6 MiB, and one allowing 100 KiB.
    final class Fixture {
        let server: HTTPServer
        var port: Int { server.port }

        /// `largeBodyClient` is the app's answer to who may send a large body (by default anyone,
        /// counted by address).
        init(
            configure: (inout ServerConfiguration) -> Void = { _ in },
            largeBodyClient: @escaping @Sendable (Request) -> String? = { $0.remoteAddress }
        ) throws {
            var router = Router<Void>()
            let describe: Handler<Void> = { request, _ in
                let form = try request.form()
                let files = try request.files()
                return .text(
                    form.pairs.map { "\($0.name)=\($0.value.utf8.count)" }.joined(separator: "&") + ";"
                        + files.map { "\($0.name):\($0.filename):\($0.bytes.count)" }.joined(separator: ","))
            }
            router.post("/echo", describe)
            router.post("/upload", maxBodyBytes: 6 << 20, describe)
            router.add(.post, "/upload/:size", maxBodyBytes: 100 << 10, describe)
            let application = Application<Void>(
                middleware: [
                    ErrorPages(log: .silent) { error, _, _ in .text("\(error.status.code) \(error.message)") },
                    RequestValidation(),
                ],
                router: router, largeBodyClient: largeBodyClient, makeContext: { _ in () })
            server = try startTestServer(application, configure: configure)
        }

        deinit { server.shutdown() }
    }

    private static func upload(bytes count: Int) -> MultipartBody {
        var body = MultipartBody()
        body.field("title", "A big picture")
        body.file("image", filename: "big.png", contentType: "image/png", [UInt8](repeating: 0x42, count: count))
        return body
    }

    @Test func aMegabyteUploadIsAcceptedWhereTheRouteAllowsIt() throws {
        let fixture = try Fixture()
        let body = Self.upload(bytes: 1 << 20)
        let response = try TestClient(port: fixture.port).request(
            "POST", "/upload", headers: [("Content-Type", body.contentType)], body: body.finished)
        #expect(response.status == 200)
        #expect(response.text == "title=13;image:big.png:1048576")
    }

    @Test func theSameUploadToAnotherRouteIs413BeforeTheBodyIsRead() throws {
        let fixture = try Fixture()
        let body = Self.upload(bytes: 1 << 20)
        let connection = try RawHTTPConnection(port: fixture.port)
        // Only the head is sent: the answer must come without the body.
        try connection.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: \(body.contentType)\r\nContent-Length: \(body.finished.count)\r\n\r\n"
        )
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.text.contains("64 KiB"))
        #expect(connection.isClosedByServer())
    }

    @Test func aDeclaredBodyPastTheRoutesLimitIs413BeforeReading() throws {
        let fixture = try Fixture()
        let connection = try RawHTTPConnection(port: fixture.port)
        try connection.send(
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: \((6 << 20) + 1)\r\n\r\n"
        )
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.text.contains("larger than the 6 MiB this address accepts"))
        #expect(connection.isClosedByServer())
    }

    private func sendChunked(_ path: String, bytes count: Int, port: Int) throws -> TestResponse {
        let body = Self.upload(bytes: count).finished
        let connection = try RawHTTPConnection(port: port)
        var request = Array(
            "POST \(path) HTTP/1.1\r\nHost: x\r\nContent-Type: \(MultipartBody().contentType)\r\nTransfer-Encoding: chunked\r\n\r\n"
                .utf8)
        var offset = 0
        while offset < body.count {
            let end = min(body.count, offset + 16 * 1024)
            request += Array((String(end - offset, radix: 16) + "\r\n").utf8) + body[offset..<end] + Array("\r\n".utf8)
            offset = end
        }
        request += Array("0\r\n\r\n".utf8)
        try connection.send(request)
        return try connection.readResponse()
    }

    @Test func chunkedBodiesFollowTheRoutesLimit() throws {
        let fixture = try Fixture()
        // 80 KiB: past the server's 64 KiB, within the route's 100 KiB.
        let within = try sendChunked("/upload/small", bytes: 80 << 10, port: fixture.port)
        #expect(within.status == 200)
        #expect(within.text.hasSuffix("image:big.png:81920"))
        let past = try sendChunked("/upload/small", bytes: 120 << 10, port: fixture.port)
        #expect(past.status == 413)
        #expect(past.text.contains("100 KiB"))
        let elsewhere = try sendChunked("/echo", bytes: 80 << 10, port: fixture.port)
        #expect(elsewhere.status == 413)
    }

    @Test func largeBodiesShareABudgetAndGiveItBack() throws {
        let fixture = try Fixture { $0.largeBodyBudgetBytes = 1 << 20 }
        let body = Self.upload(bytes: 700 << 10).finished
        let head =
            "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: \(MultipartBody().contentType)\r\nContent-Length: \(body.count)\r\n\r\n"
        let first = try RawHTTPConnection(port: fixture.port)
        try first.send(Array(head.utf8) + body[0..<1000])
        usleep(300_000)
        // The first upload holds 700 KiB of the 1 MiB budget: a second is refused, unread.
        let second = try RawHTTPConnection(port: fixture.port)
        try second.send(head)
        let refused = try second.readResponse()
        #expect(refused.status == 503)
        #expect(refused["Retry-After"] != nil)
        #expect(second.isClosedByServer())
        // A body within the server's own limit needs no budget.
        let small = try TestClient(port: fixture.port).post("/upload", form: [("a", "1")])
        #expect(small.status == 200)

        try first.send(Array(body[1000...]))
        #expect(try first.readResponse().status == 200)
        usleep(200_000)
        let third = try TestClient(port: fixture.port).request(
            "POST", "/upload", headers: [("Content-Type", MultipartBody().contentType)], body: body)
        #expect(third.status == 200)
    }

    /// Admits only requests carrying `X-Client: NAME`, counted as NAME (as an app admits sessions).
    private static func namedClients() throws -> Fixture {
        try Fixture(configure: { $0.largeBodyBudgetBytes = 4 << 20 }, largeBodyClient: { $0.headers["X-Client"] })
    }

    private static func uploadHead(bytes: Int, client: String?) -> String {
        "POST /upload HTTP/1.1\r\nHost: x\r\nContent-Type: \(MultipartBody().contentType)\r\n"
            + (client.map { "X-Client: \($0)\r\n" } ?? "") + "Content-Length: \(bytes)\r\n\r\n"
    }

    @Test func aStrangerAnnouncingALargeBodyIs413BeforeItIsRead() throws {
        let fixture = try Self.namedClients()
        let connection = try RawHTTPConnection(port: fixture.port)
        // Only the head is sent: the answer must come without the body.
        try connection.send(Self.uploadHead(bytes: 6 << 20, client: nil))
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(response.text.contains("larger than 64 KiB only from a logged-in browser"))
        #expect(connection.isClosedByServer())
        // Within the server's own limit, a stranger's body is taken as on any route.
        let small = try TestClient(port: fixture.port).post("/upload", form: [("a", "1")])
        #expect(small.status == 200)
    }

    @Test func aStrangersChunkedBodyIsHeldToTheServersLimit() throws {
        let fixture = try Self.namedClients()
        let past = try sendChunked("/upload", bytes: 80 << 10, port: fixture.port)
        #expect(past.status == 413)
        #expect(past.text.contains("64 KiB"))
        let within = try sendChunked("/upload", bytes: 60 << 10, port: fixture.port)
        #expect(within.status == 200)
    }

    @Test func oneClientHoldsAtMostAShareOfTheBudget() throws {
        // A 4 MiB budget: each client may hold 1 MiB, though a client holding nothing may start
        // a body of any size the route allows.
        let fixture = try Self.namedClients()
        let body = Self.upload(bytes: 700 << 10).finished
        let first = try RawHTTPConnection(port: fixture.port)
        try first.send(Array(Self.uploadHead(bytes: body.count, client: "alice").utf8) + body[0..<1000])
        usleep(300_000)
        // Alice holds 700 KiB: a second body of hers would pass her 1 MiB share.
        let second = try RawHTTPConnection(port: fixture.port)
        try second.send(Self.uploadHead(bytes: body.count, client: "alice"))
        let refused = try second.readResponse()
        #expect(refused.status == 503)
        #expect(refused.text.contains("as many large uploads as one client may at once"))
        #expect(refused["Retry-After"] != nil)
        #expect(second.isClosedByServer())
        // Bob's share is his own; 2.8 of the 4 MiB are still free.
        let bob = try TestClient(port: fixture.port).request(
            "POST", "/upload", headers: [("Content-Type", MultipartBody().contentType), ("X-Client", "bob")],
            body: body)
        #expect(bob.status == 200)
        // Once Alice's first body has arrived, her share is free again.
        try first.send(Array(body[1000...]))
        #expect(try first.readResponse().status == 200)
        usleep(200_000)
        let again = try TestClient(port: fixture.port).request(
            "POST", "/upload", headers: [("Content-Type", MultipartBody().contentType), ("X-Client", "alice")],
            body: body)
        #expect(again.status == 200)
    }

    @Test func theRouterAnswersTheLimitOfTheRouteThatWouldServe() {
        var router = Router<Void>()
        router.post("/a/new") { _, _ in .text("") }
        router.post("/a/:id", maxBodyBytes: 1 << 20) { _, _ in .text("") }
        router.add(.put, "/a/:id", maxBodyBytes: 2 << 20) { _, _ in .text("") }
        #expect(router.maxBodyBytes(for: Request(method: .post, target: "/a/7")) == 1 << 20)
        #expect(router.maxBodyBytes(for: Request(method: .put, target: "/a/7")) == 2 << 20)
        // The earlier route without a limit answers this one.
        #expect(router.maxBodyBytes(for: Request(method: .post, target: "/a/new")) == nil)
        #expect(router.maxBodyBytes(for: Request(method: .post, target: "/b")) == nil)
        #expect(router.maxBodyBytes(for: Request(method: .get, target: "/a/7")) == nil)
    }
}
