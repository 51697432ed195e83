import Foundation
import HTTP
import TestSupport

@testable import Herald

/// The whole Herald app on a fresh data directory. By default served by the real server on
/// an ephemeral loopback port; with `server: false` nothing listens, and `client()` hands
/// requests straight to `app.responder` (for rules and pages, not for what the network decides).
final class TestApp {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    /// The Host an in-process client sends: any fixed value works, nothing listens on it.
    static let inProcessHost = "127.0.0.1:8080"
    /// The demo articles, parsed once per test process: parsing them (JSON and HTML text, in a
    /// debug build) was a third of the cost of every TestApp. Each app still imports them into
    /// its own new database, as `loadDemoContent` does; `demoContentIsWhatTheAppLoads` checks
    /// that the two give the same articles.
    static let demoArticles = Result { () throws -> [IncomingArticle] in
        let path = repositoryRoot + "/Content/demo-articles.json"
        guard let data = FileManager.default.contents(atPath: path) else { throw TestClientError("no \(path)") }
        return try FeedParser.parse(Array(data), name: path)
    }

    let app: HeraldApp
    /// The real server, or nil when the app is driven in-process.
    let server: HTTPServer?
    let configuration: Configuration
    let dataDirectory: String
    private let dropDatabase: () -> Void
    /// The server's port; 0 when there is no server.
    var port: Int { server?.port ?? 0 }
    /// What clients send as `Host` (and so what counts as this site's origin).
    var host: String { server.map { "127.0.0.1:\($0.port)" } ?? Self.inProcessHost }

    /// `prepareDatabase` runs on the new, empty database before the app opens (and migrates) it:
    /// tests build one as an older Herald left it.
    init(
        server serve: Bool = true, demo: Bool = true, configure: (inout Configuration) -> Void = { _ in },
        prepareDatabase: (Database.Backend) throws -> Void = { _ in }
    ) throws {
        dataDirectory = try makeTemporaryDirectory()
        var configuration = Configuration()
        configuration.port = 0
        configuration.threads = 2
        configuration.dataDirectory = dataDirectory
        configuration.rootDirectory = Self.repositoryRoot
        configuration.loadDemoContent = false
        configuration.accounts.passwordCost = .minimum
        configuration.secret = "test-secret-0123456789abcdef"
        let database = try TestDatabase.make(in: dataDirectory)
        if case .postgres(let url) = database.backend { configuration.databaseURL = url }
        dropDatabase = database.drop
        try prepareDatabase(database.backend)
        configure(&configuration)
        self.configuration = configuration
        app = try HeraldApp(configuration: configuration, log: .silent)
        if demo { _ = try app.articles.importArticles(Self.demoArticles.get(), now: configuration.clock.now()) }
        if serve {
            let server = HTTPServer(
                configuration: configuration.serverConfiguration, responder: app.responder, log: .silent)
            try server.start()
            app.site.listening(on: server.port)
            self.server = server
        } else {
            // What an in-process client's Host names: the address such an app would listen on.
            app.site.listening(on: Int(Self.inProcessHost.split(separator: ":").last ?? "") ?? 0)
            server = nil
        }
    }

    /// A new browser: over a socket when there is a server, in-process when there is none.
    func client() -> any HTTPTestClient {
        if let server { return TestClient(port: server.port) }
        return InProcessClient(
            responder: app.responder, host: Self.inProcessHost, maxBodyBytes: configuration.maxBodyBytes)
    }

    deinit {
        server?.shutdown()
        _ = app.mailer?.drain(timeout: .seconds(5))
        app.database.close()
        dropDatabase()
        removeDirectory(dataDirectory)
    }
}
