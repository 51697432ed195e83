import Foundation
import HTTP
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite struct ServerTests {
    @Test func keepAliveReusesOneConnection() throws {
        let fixture = try ServerFixture()
        let connection = try RawHTTPConnection(port: fixture.port)
        for _ in 0..<5 {
            try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = try connection.readResponse()
            #expect(response.status == 200)
            #expect(response.text == "hello")
            #expect(response["Connection"]?.lowercased() != "close")
        }
    }

    @Test func securityHeadersOnEveryResponse() throws {
        let fixture = try ServerFixture()
        let client = TestClient(port: fixture.port)
        for path in ["/hello", "/nope", "/static/site.css"] {
            let response = try client.get(path)
            #expect(response["X-Content-Type-Options"] == "nosniff", "\(path)")
            #expect(response["Referrer-Policy"] == "same-origin")
            #expect(response["Content-Security-Policy"]?.contains("frame-ancestors 'none'") == true)
            #expect(response["Content-Security-Policy"]?.contains("default-src 'self'") == true)
        }
    }

    @Test func notFoundAndMethodNotAllowed() throws {
        let fixture = try ServerFixture()
        let client = TestClient(port: fixture.port)
        let missing = try client.get("/missing")
        #expect(missing.status == 404)
        #expect(missing.text.contains("There is no page at this address."))
        let wrongMethod = try client.post("/hello", form: [])
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod["Allow"] == "GET, HEAD")
    }

    @Test func headIsGetWithoutBody() throws {
        let fixture = try ServerFixture()
        let connection = try RawHTTPConnection(port: fixture.port)
        try connection.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        let head = try connection.readResponse(forHead: true)
        #expect(head.status == 200)
        #expect(head["Content-Length"] == "5")
        // The connection is still in sync: the next response is the GET's, not leftover body bytes.
        try connection.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(try connection.readResponse().text == "hello")
    }

    @Test func formPostsAreDecoded() throws {
        let fixture = try ServerFixture()
        let client = TestClient(port: fixture.port)
        let response = try client.post("/echo", form: [("name", "Zoë & co"), ("n", "1")])
        #expect(response.status == 200)
        #expect(response.text == "name=Zoë & co&n=1")
    }

    @Test func malformedFormAndPathAre400() throws {
        let fixture = try ServerFixture()
        let client = TestClient(port: fixture.port)
        let badForm = try client.request(
            "POST", "/echo", headers: [("Content-Type", "application/x-www-form-urlencoded")], body: Array("a=%ZZ".utf8)
        )
        #expect(badForm.status == 400)
        let badPath = try client.get("/hello%zz")
        #expect(badPath.status == 400)
        let badUTF8 = try client.get("/hello?q=%C3%28")
        #expect(badUTF8.status == 400)
    }

    @Test func declaredOversizedBodyIs413BeforeReading() throws {
        let fixture = try ServerFixture { $0.maxBodyBytes = 1024 }
        let connection = try RawHTTPConnection(port: fixture.port)
        // Declares 10 MB but sends nothing: the answer must come without the body.
        try connection.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 10000000\r\n\r\n"
        )
        let response = try connection.readResponse()
        #expect(response.status == 413)
        #expect(connection.isClosedByServer())
    }

    @Test func chunkedOversizedBodyIs413() throws {
        let fixture = try ServerFixture { $0.maxBodyBytes = 1024 }
        let connection = try RawHTTPConnection(port: fixture.port)
        let chunk = String(repeating: "a", count: 800)
        try connection.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "320\r\n\(chunk)\r\n320\r\n\(chunk)\r\n0\r\n\r\n")
        #expect(try connection.readResponse().status == 413)
    }

    @Test func bodyWithinLimitIsAccepted() throws {
        let fixture = try ServerFixture { $0.maxBodyBytes = 1024 }
        let client = TestClient(port: fixture.port)
        let response = try client.post("/echo", form: [("a", String(repeating: "x", count: 1000))])
        #expect(response.status == 200)
    }

    @Test(arguments: [
        "Content-Length: 5\r\nContent-Length: 5\r\n",
        "Content-Length: 5\r\nTransfer-Encoding: chunked\r\n",
        "Transfer-Encoding: chunked\r\nContent-Length: 5\r\n",
        "Host: other\r\nContent-Length: 5\r\n",
    ])
    func ambiguousFramingIs400AndCloses(framing: String) throws {
        let fixture = try ServerFixture()
        let connection = try RawHTTPConnection(port: fixture.port)
        try connection.send("POST /echo HTTP/1.1\r\nHost: x\r\n\(framing)\r\na=1&b")
        let response = try connection.readResponse()
        #expect(response.status == 400)
        #expect(connection.isClosedByServer())
    }

    @Test func unexpectedErrorsBecomeGeneric500() throws {
        let fixture = try ServerFixture()
        let response = try TestClient(port: fixture.port).get("/crash")
        #expect(response.status == 500)
        #expect(!response.text.contains("secret internal detail"))
    }

    @Test func compressedWhenAcceptedOnly() throws {
        let fixture = try ServerFixture()
        let client = TestClient(port: fixture.port)
        let plain = try client.get("/big")
        #expect(plain["Content-Encoding"] == nil)
        #expect(plain["Vary"] == "Accept-Encoding")
        let compressed = try client.get("/big", headers: [("Accept-Encoding", "gzip")])
        #expect(compressed["Content-Encoding"] == "gzip")
        #expect(compressed["Vary"] == "Accept-Encoding")
        #expect(compressed.body.count < plain.body.count)
        #expect(Gzip.decompress(compressed.body) == plain.body)
        // Offered both, the client gets br (the server's order breaks the tie).
        let preferred = try client.get("/big", headers: [("Accept-Encoding", "gzip, br")])
        #expect(preferred["Content-Encoding"] == "br")
        #expect(BrotliCodec.decompress(preferred.body) == plain.body)
        let small = try client.get("/hello", headers: [("Accept-Encoding", "gzip")])
        #expect(small["Content-Encoding"] == nil)
    }

    @Test func staticFilesWithETagAndCaching() throws {
        let fixture = try ServerFixture()
        let client = TestClient(port: fixture.port)
        let css = try client.get("/static/site.css")
        #expect(css.status == 200)
        #expect(css["Content-Type"] == "text/css; charset=utf-8")
        #expect(css["Cache-Control"]?.contains("max-age") == true)
        let etag = try #require(css["ETag"])
        let again = try client.get("/static/site.css", headers: [("If-None-Match", etag)])
        #expect(again.status == 304)
        #expect(again.body.isEmpty)
        let gzipped = try client.get("/static/site.css", headers: [("Accept-Encoding", "gzip")])
        #expect(gzipped["Content-Encoding"] == "gzip")
        #expect(Gzip.decompress(gzipped.body) == css.body)
        let png = try client.get("/static/img/dot.png", headers: [("Accept-Encoding", "gzip")])
        #expect(png["Content-Type"] == "image/png")
        #expect(png["Content-Encoding"] == nil)
        let head = try client.head("/static/robots.txt")
        #expect(head.status == 200)
        #expect(head["Content-Length"] == "14")
    }

    @Test(arguments: [
        "/static/../Package.swift", "/static/%2e%2e/secret.txt", "/static/img/%2E%2E/%2E%2E/secret.txt",
        "/static/..%2Fsecret.txt", "/static/img%2F..%2F..%2Fsecret.txt", "/static/..%5Csecret.txt",
        "/static/%00", "/static/site.css%00.txt", "/static/outside", "/static/outside/secret.txt",
        "/static/.hidden", "/static/", "/static/img",
    ])
    func traversalIsRefused(path: String) throws {
        let fixture = try ServerFixture()
        // A secret next to Public/, and a symlink inside Public/ pointing at it.
        let parent = (fixture.publicDirectory as NSString).deletingLastPathComponent
        let secretDirectory = parent + "/herald-secret-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: secretDirectory, withIntermediateDirectories: true)
        defer { removeDirectory(secretDirectory) }
        try writeFile(secretDirectory + "/secret.txt", "TOP SECRET")
        try writeFile(parent + "/secret.txt", "TOP SECRET")
        try writeFile(fixture.publicDirectory + "/.hidden", "TOP SECRET")
        symlink(secretDirectory, fixture.publicDirectory + "/outside")

        let response = try TestClient(port: fixture.port).get(path)
        #expect([400, 404].contains(response.status), "\(path) → \(response.status)")
        #expect(!response.text.contains("TOP SECRET"))
    }

    @Test func slowBodyIsCutOffWhileOthersAreServed() throws {
        let fixture = try ServerFixture { $0.requestDeadlineSeconds = 1 }
        let slow = try RawHTTPConnection(port: fixture.port)
        try slow.send(
            "POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: 100\r\n\r\n"
        )
        let started = Date()
        var cutOff = false
        for _ in 0..<40 {
            // Meanwhile another client is served promptly.
            let other = try TestClient(port: fixture.port).get("/hello")
            #expect(other.status == 200)
            do { try slow.send("a") } catch {
                cutOff = true
                break
            }
            if slow.isClosedByServer(within: 0.1) {
                cutOff = true
                break
            }
        }
        #expect(cutOff || slow.isClosedByServer(within: 2))
        #expect(Date().timeIntervalSince(started) < 4)
    }

    @Test func pooledRoutesDoNotBlockOtherRequestsAndRefuseWhenFull() throws {
        let fixture = try ServerFixture { $0.threads = 1 }
        // Two pooled requests: one runs, one waits in the single queue place.
        let first = try RawHTTPConnection(port: fixture.port)
        try first.send("GET /pooled HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(50_000)
        let second = try RawHTTPConnection(port: fixture.port)
        try second.send("GET /pooled HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(50_000)
        // The only server thread is free: a page is answered while both wait.
        let started = Date()
        #expect(try TestClient(port: fixture.port).get("/hello").status == 200)
        // Well before the pooled job (1.5 s) could have finished: the page did not wait for it.
        #expect(Date().timeIntervalSince(started) < 1.0)
        // A third pooled request finds the queue full: 503 at once, with Retry-After.
        let third = try TestClient(port: fixture.port).get("/pooled")
        #expect(third.status == 503)
        #expect(third["Retry-After"] != nil)
        #expect(try first.readResponse().text == "pooled")
        #expect(try second.readResponse().text == "pooled")
    }

    @Test func gracefulShutdownFinishesInFlightRequest() throws {
        let fixture = try ServerFixture()
        let connection = try RawHTTPConnection(port: fixture.port)
        try connection.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(100_000)  // the request is now being handled
        let server = fixture.server
        let stopper = Thread { server.shutdown() }
        stopper.start()
        let response = try connection.readResponse()
        #expect(response.status == 200)
        #expect(response.text == "finally")
        usleep(200_000)
        // New connections are no longer accepted.
        #expect(throws: (any Error).self) {
            let late = try RawHTTPConnection(port: fixture.port, receiveTimeoutSeconds: 1)
            try late.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try late.readResponse()
        }
    }
}
