/// One line per request: method, path, status, body bytes, microseconds.
/// The query string, cookies and form values are never logged: they can hold secrets.
public struct AccessLog<Context>: Middleware {
    private let log: Logger

    public init(log: Logger) { self.log = log }

    public func handle(_ request: Request, context: inout Context, next: Next<Context>) throws -> Response {
        let start = monotonicMicroseconds()
        let response: Response
        do {
            response = try next(request, &context)
        } catch {
            log.info("\(request.method) \(loggable(request.path)) 500 0 \(monotonicMicroseconds() - start)us")
            throw error
        }
        log.info(
            "\(request.method) \(loggable(request.path)) \(response.status.code) \(response.body.count) \(monotonicMicroseconds() - start)us"
        )
        return response
    }
}
