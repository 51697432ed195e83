import HTTP

/// `GET /metrics` on the site's own port, for a scraper that sends
/// `Authorization: Bearer $HERALD_METRICS_TOKEN`; 404 for everyone else, as if it were not there.
/// (`--metrics-port` serves it on a listener of its own, without a token: `MetricsServer`.)
struct MetricsController: Sendable {
    let metrics: Metrics
    let token: String?

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/metrics") { request, _ in
            guard let token, Self.bears(token, request.headers["Authorization"]) else {
                throw HTTPError(.notFound, "There is no page at this address.")
            }
            return Self.exposition(metrics)
        }
    }

    static func exposition(_ metrics: Metrics) -> Response {
        var response = Response(
            status: .ok, headers: HTTPHeaders([("Content-Type", "text/plain; version=0.0.4; charset=utf-8")]),
            body: Array(metrics.exposition().utf8))
        response.headers.add("Cache-Control", "no-store")
        return response
    }

    /// The header is exactly `Bearer <token>`, compared in constant time.
    private static func bears(_ token: String, _ header: String?) -> Bool {
        guard let header, header.hasPrefix("Bearer ") else { return false }
        let presented = Array(header.dropFirst("Bearer ".count).utf8)
        let expected = Array(token.utf8)
        return presented.count == expected.count && Sodium.constantTimeEquals(presented, expected)
    }
}

/// The `--metrics-port` listener: `/metrics` and nothing else, no token (keep the port private).
struct MetricsResponder: Responder {
    let metrics: Metrics

    func respond(to request: Request) -> Response {
        guard request.method == .get || request.method == .head, request.path == "/metrics" else {
            return .text("404 Not Found\n", status: .notFound)
        }
        return MetricsController.exposition(metrics)
    }
}
