import HTTP
import TestSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A real HTTPServer on an ephemeral loopback port with a small app, for end-to-end tests.
final class ServerFixture {
    let server: HTTPServer
    let publicDirectory: String
    var port: Int { server.port }

    init(configure: (inout ServerConfiguration) -> Void = { _ in }) throws {
        publicDirectory = try makeTemporaryDirectory()
        try writeFile(publicDirectory + "/site.css", String(repeating: "body { color: #222; }\n", count: 100))
        try writeFile(publicDirectory + "/robots.txt", "User-agent: *\n")
        mkdir(publicDirectory + "/img", 0o755)
        try writeFile(publicDirectory + "/img/dot.png", "\u{89}PNG fake")

        let staticFiles = try StaticFiles(root: publicDirectory)
        var router = Router<Void>()
        router.get("/hello") { _, _ in .text("hello") }
        router.get("/big") { _, _ in .html(String(repeating: "<p>Herald news for everyone.</p>\n", count: 100)) }
        router.post("/echo") { request, _ in
            let form = try request.form()
            return .text(form.pairs.map { "\($0.name)=\($0.value)" }.joined(separator: "&"))
        }
        router.get("/slow") { _, _ in
            usleep(400_000)
            return .text("finally")
        }
        // A slow route answered on its own pool (as password hashing is), one job at a time.
        let slowPool = WorkerPool(name: "test-slow", threads: 1, queueLimit: 1)
        router.add(.get, "/pooled", on: slowPool) { _, _ in
            usleep(1_500_000)
            return .text("pooled")
        }
        router.get("/crash") { _, _ in throw TestClientError("secret internal detail") }
        router.get("/static/*path") { request, _ in
            try staticFiles.response(for: request.pathSegments.dropFirst().map { $0 }, request: request)
        }
        let application = Application<Void>(
            middleware: [
                AccessLog(log: .silent),
                SecurityHeaders(contentSecurityPolicy: "default-src 'self'; frame-ancestors 'none'"),
                ErrorPages(log: .silent) { error, _, _ in .html("<h1>\(error.status.code)</h1><p>\(error.message)</p>")
                },
                RequestValidation(), Compression(),
            ],
            router: router, makeContext: { _ in () })
        server = try startTestServer(application, configure: configure)
    }

    deinit {
        server.shutdown()
        removeDirectory(publicDirectory)
    }
}

/// `responder` served by a started HTTPServer on an ephemeral loopback port with two threads,
/// the way every HTTP test runs it; `configure` adjusts the limits under test.
func startTestServer(_ responder: any Responder, configure: (inout ServerConfiguration) -> Void) throws
    -> HTTPServer
{
    var configuration = ServerConfiguration()
    configuration.port = 0
    configuration.threads = 2
    configure(&configuration)
    let server = HTTPServer(configuration: configuration, responder: responder, log: .silent)
    try server.start()
    return server
}
