import HTTP

/// `GET /healthz`: 200 `ok` while the server can serve and reach its database.
struct HealthController: Sendable {
    let database: Database

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/healthz") { _, _ in
            guard (try? database.isReachable()) == true else {
                return .text("database unavailable\n", status: .serviceUnavailable)
            }
            return .text("ok")
        }
    }
}
