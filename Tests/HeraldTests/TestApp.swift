import Foundation
import HTTP
import TestSupport

@testable import Herald

/// The whole Herald app on a fresh data directory, served by the real server on an
/// ephemeral loopback port.
final class TestApp {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path

    let app: HeraldApp
    let server: HTTPServer
    let dataDirectory: String
    private let dropDatabase: () -> Void
    var port: Int { server.port }

    init(demo: Bool = true, configure: (inout Configuration) -> Void = { _ in }) throws {
        dataDirectory = try makeTemporaryDirectory()
        var configuration = Configuration()
        configuration.port = 0
        configuration.threads = 2
        configuration.dataDirectory = dataDirectory
        configuration.rootDirectory = Self.repositoryRoot
        configuration.loadDemoContent = demo
        configuration.accounts.passwordCost = .minimum
        configuration.secret = "test-secret-0123456789abcdef"
        let database = try TestDatabase.make(in: dataDirectory)
        if case .postgres(let url) = database.backend { configuration.databaseURL = url }
        dropDatabase = database.drop
        configure(&configuration)
        app = try HeraldApp(configuration: configuration, log: .silent)
        server = HTTPServer(configuration: configuration.serverConfiguration, responder: app.responder, log: .silent)
        try server.start()
    }

    func client() -> TestClient { TestClient(port: port) }

    deinit {
        server.shutdown()
        _ = app.mailer?.drain(timeout: .seconds(5))
        app.database.close()
        dropDatabase()
        removeDirectory(dataDirectory)
    }
}
