import Testing

@testable import HTTP

@Suite struct RouterTests {
    private func router() -> Router<Void> {
        var router = Router<Void>()
        router.get("/") { _, _ in .text("home") }
        router.get("/articles/:slug") { request, _ in .text("article \(request.parameters["slug"] ?? "")") }
        router.post("/articles/:slug/like") { request, _ in .text("like \(request.parameters["slug"] ?? "")") }
        router.get("/static/*path") { request, _ in .text("static \(request.parameters["path"] ?? "")") }
        return router
    }

    private func dispatch(_ method: HTTPMethod, _ target: String) throws -> String {
        var context: Void = ()
        let response = try router().dispatch(Request(method: method, target: target), context: &context)
        return String(decoding: response.body, as: UTF8.self)
    }

    @Test func matchesLiteralsAndParameters() throws {
        #expect(try dispatch(.get, "/") == "home")
        #expect(try dispatch(.get, "/articles/hello-world") == "article hello-world")
        #expect(try dispatch(.get, "/articles/caf%C3%A9") == "article café")
        #expect(try dispatch(.post, "/articles/x/like") == "like x")
        #expect(try dispatch(.get, "/static/css/site.css") == "static css/site.css")
    }

    @Test func headFallsBackToGet() throws {
        #expect(try dispatch(.head, "/articles/x") == "article x")
    }

    @Test func unknownPathIs404() {
        for target in ["/nope", "/articles", "/articles/x/y", "/articles/", "/static"] {
            #expect(throws: HTTPError.self) { try dispatch(.get, target) }
            do { _ = try dispatch(.get, target) } catch let error as HTTPError {
                #expect(error.status == .notFound, "\(target)")
            } catch {}
        }
    }

    @Test func wrongMethodIs405WithAllow() throws {
        do {
            _ = try dispatch(.post, "/articles/x")
            Issue.record("expected 405")
        } catch let error as HTTPError {
            #expect(error.status == .methodNotAllowed)
            #expect(error.headers["Allow"] == "GET, HEAD")
        }
        do {
            _ = try dispatch(.get, "/articles/x/like")
            Issue.record("expected 405")
        } catch let error as HTTPError {
            #expect(error.headers["Allow"] == "POST")
        }
    }

    @Test func poolsAndPatternsComeFromTheRouteThatWouldAnswer() {
        let pool = WorkerPool(name: "router-test", threads: 1, queueLimit: 1)
        var router = router()
        router.post("/login", on: pool) { _, _ in .text("login") }
        #expect(router.workerPool(for: Request(method: .post, target: "/login")) === pool)
        #expect(router.workerPool(for: Request(method: .get, target: "/login")) == nil)
        #expect(router.workerPool(for: Request(method: .post, target: "/articles/x/like")) == nil)
        #expect(router.pattern(for: Request(method: .post, target: "/articles/x/like")) == "/articles/:slug/like")
        #expect(router.pattern(for: Request(method: .head, target: "/static/a/b.css")) == "/static/*path")
        // An empty parameter or a missing rest is no match, as for dispatch.
        #expect(router.pattern(for: Request(method: .get, target: "/articles/")) == "unmatched")
        #expect(router.pattern(for: Request(method: .get, target: "/static")) == "unmatched")
    }
}
