/// Turns thrown errors into responses.
///
/// An `HTTPError` becomes the page `render` draws for it; any other error is a
/// bug or an outage, so it is logged with its text and the reader gets a generic
/// 500 page that reveals nothing of it.
public struct ErrorPages<Context>: Middleware {
    public typealias Renderer = @Sendable (HTTPError, Request, Context) -> Response

    private let render: Renderer
    private let log: Logger

    public init(log: Logger, render: @escaping Renderer) {
        self.log = log
        self.render = render
    }

    public func handle(_ request: Request, context: inout Context, next: Next<Context>) throws -> Response {
        do {
            return try next(request, &context)
        } catch let error as HTTPError {
            return response(for: error, request, context)
        } catch {
            log.error("unhandled error for \(request.method) \(request.path): \(error)")
            return response(
                for: HTTPError(.internalServerError, "Something went wrong on our side. Please try again."),
                request, context)
        }
    }

    private func response(for error: HTTPError, _ request: Request, _ context: Context) -> Response {
        var response = render(error, request, context)
        response.status = error.status
        for (name, value) in error.headers { response.headers.add(name, value) }
        if error.closeConnection { response.closesConnection = true }
        return response
    }
}
