import HTTP

/// `GET /static/*` from `Public/`.
struct StaticController: Sendable {
    let files: StaticFiles

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/static/*path") { request, _ in
            try files.response(for: Array(request.pathSegments.dropFirst()), request: request)
        }
    }
}
