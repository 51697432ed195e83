import Foundation
import HTTP

/// The assembled application: store, services, controllers and middleware, built
/// the same way for `herald serve` and for the tests.
public final class HeraldApp: Sendable {
    public let configuration: Configuration
    public let database: Database
    public let articles: ArticleStore
    public let responder: Application<RequestContext>

    public init(configuration: Configuration, log: Logger) throws {
        self.configuration = configuration
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory, withIntermediateDirectories: true)
        database = try Database(path: configuration.dataDirectory + "/herald.sqlite3")
        articles = ArticleStore(database: database)
        let views = try Views(
            directory: configuration.templatesDirectory, reloadOnChange: configuration.developmentMode)

        if configuration.loadDemoContent, try articles.isEmpty() {
            let added = try DemoContent.load(from: configuration.contentDirectory, into: articles)
            log.info("loaded \(added) demo articles into the new database")
        }

        var router = Router<RequestContext>()
        HealthController(database: database).addRoutes(to: &router)
        ArticlesController(articles: articles, views: views).addRoutes(to: &router)
        FeedController(articles: articles, views: views, baseURL: configuration.baseURL).addRoutes(to: &router)
        StaticController(files: try StaticFiles(root: configuration.publicDirectory)).addRoutes(to: &router)

        // The order here is the order of protection: log everything, add security headers to
        // everything (error pages included), turn errors into pages, refuse malformed requests
        // before any of our code reads them, compress what goes out.
        let middleware: [any Middleware<RequestContext>] = [
            AccessLog(log: configuration.accessLog ? log : .silent),
            SecurityHeaders(),
            ErrorPages(log: log) { error, _, context in views.errorPage(error, context: context) },
            RequestValidation(),
            StoreFailures(log: log),
            Compression(),
        ]
        responder = Application(middleware: middleware, router: router) { _ in RequestContext() }
    }
}
