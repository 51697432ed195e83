import Foundation
import TestSupport
import Testing

@testable import Herald

#if canImport(Glibc)
    import Glibc
#endif

/// SPEC, third wave, "Mail and public addresses" (issue #29): no absolute URL is ever built from a
/// request's Host, and `herald serve` where the listening address is not the public one refuses
/// to start without `HERALD_BASE_URL`.
@Suite struct PublicAddressTests {
    /// `herald serve` with `arguments`, given 10 seconds to exit (one that starts serving instead
    /// is stopped, and its status is then SIGTERM's).
    private static func serve(_ arguments: [String], environment extra: [String: String] = [:]) throws -> (
        status: Int32, out: String, err: String
    ) {
        let data = try makeTemporaryDirectory()
        defer { removeDirectory(data) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: ExecutableTests.binary)
        process.arguments = ["serve", "--port", "0", "--data", data, "--root", TestApp.repositoryRoot] + arguments
        var environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("HERALD_") }
        environment["HERALD_ACCESS_LOG"] = "off"
        for (key, value) in extra { environment[key] = value }
        process.environment = environment
        let out = data + "/stdout"
        let err = data + "/stderr"
        FileManager.default.createFile(atPath: out, contents: nil)
        FileManager.default.createFile(atPath: err, contents: nil)
        process.standardOutput = FileHandle(forWritingAtPath: out)
        process.standardError = FileHandle(forWritingAtPath: err)
        try process.run()
        let deadline = Date().addingTimeInterval(10)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        let read = { (path: String) in (try? String(contentsOfFile: path, encoding: .utf8)) ?? "" }
        return (process.terminationStatus, read(out), read(err))
    }

    @Test(arguments: ["0.0.0.0", "::", "192.0.2.10"])
    func servingOnANonLoopbackAddressNeedsABaseURL(_ host: String) throws {
        let run = try Self.serve(["--host", host])
        #expect(run.status == 2)
        #expect(run.err.contains("HERALD_BASE_URL is required listening on \(host), which is not a loopback address"))
        #expect(run.out.isEmpty, "it never listened")
    }

    @Test func trustingAProxyNeedsABaseURL() throws {
        let run = try Self.serve([], environment: ["HERALD_TRUST_PROXY": "1"])
        #expect(run.status == 2)
        #expect(run.err.contains("HERALD_BASE_URL is required with HERALD_TRUST_PROXY set"))
        #expect(run.out.isEmpty)
    }

    @Test func withABaseURLBothStart() throws {
        let data = try makeTemporaryDirectory()
        defer { removeDirectory(data) }
        let server = try ServerProcess(
            data: data, environment: ["HERALD_TRUST_PROXY": "1", "HERALD_BASE_URL": "https://news.example"])
        let robots = try TestClient(port: server.port).get("/robots.txt")
        #expect(robots.text.contains("Sitemap: https://news.example/sitemap.xml"))
        server.kill(SIGTERM)
        #expect(server.process.terminationStatus == 0)
    }

    /// Over a socket, with a forged Host: robots.txt, the sitemaps and the feeds name the address
    /// the server listens on (loopback, no base URL) or the configured base URL, never the Host.
    @Test(arguments: [nil, "https://news.example"])
    func crawlersAndSubscribersNeverSeeAForgedHost(_ baseURL: String?) throws {
        let app = try TestApp(demo: false) { $0.baseURL = baseURL }
        let editor = try app.editor()
        _ = try editor.newArticle(ArticleForm(title: "Harbour news", section: "Harbour", action: "publish"))
        let base = baseURL ?? "http://127.0.0.1:\(app.port)"
        let forged = [("Host", "evil.example")]
        let robots = try app.client().get("/robots.txt", headers: forged)
        #expect(robots.status == 200)
        #expect(robots.text.contains("Sitemap: \(base)/sitemap.xml\n"), "\(robots.text)")
        for path in [
            "/robots.txt", "/sitemap.xml", "/sitemaps/sections.xml", "/feed.atom", "/sections/harbour/feed.atom",
        ] {
            let response = try app.client().get(path, headers: forged)
            #expect(response.status == 200, "\(path)")
            #expect(!response.text.contains("evil.example"), "\(path)")
            #expect(response.text.contains(base), "\(path)")
            #expect(response["Cache-Control"] == "public, max-age=300", "\(path): the same for everyone")
        }
    }

    /// The password-reset mail of a server without a base URL links to the port it really listens
    /// on (it was `http://127.0.0.1:0` with `--port 0`), whatever Host the request named.
    @Test func aResetLinkNamesTheListeningAddressNotTheHost() throws {
        let sink = try SMTPSink()
        let app = try TestApp(demo: false) {
            $0.smtpURL = sink.url
            $0.mailFrom = "news@herald.test"
        }
        let reader = app.client()
        let token = try reader.formToken(on: "/register")
        let form = [("username", "linked"), ("password", "a-long-pass-phrase"), ("email", "linked@example.org")]
        #expect(try reader.post("/register", form: [("csrf_token", token)] + form).status == 303)
        let asker = app.client()
        let askToken = try asker.formToken(on: "/password/forgot")
        let asked = try asker.post(
            "/password/forgot", form: [("csrf_token", askToken), ("email", "linked@example.org")],
            headers: [("Host", "evil.example")])
        #expect(asked.status == 303)
        let text = try #require(try sink.messages(1).first?.part("text/plain"))
        #expect(text.contains("http://127.0.0.1:\(app.port)/password/reset/"), "\(text)")
        #expect(!text.contains("evil.example"))
    }
}
