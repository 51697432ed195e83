/// An expected failure that carries its own response: thrown by handlers and
/// middleware, turned into an error page by the application.
///
/// `message` is shown to the reader, so it must never contain internal details.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public var status: HTTPStatus
    public var message: String
    /// Extra headers for the error response (`Allow` for 405, `Retry-After` for 429/503).
    public var headers: HTTPHeaders
    /// Close the connection after answering (used when the request framing cannot be trusted).
    public var closeConnection: Bool

    public init(
        _ status: HTTPStatus, _ message: String, headers: HTTPHeaders = HTTPHeaders(),
        closeConnection: Bool = false
    ) {
        self.status = status
        self.message = message
        self.headers = headers
        self.closeConnection = closeConnection
    }

    public var description: String { "\(status): \(message)" }

    /// 429 with `Retry-After`: the one way a limit is answered.
    public static func tooManyRequests(retryAfter seconds: Int, _ message: String) -> HTTPError {
        HTTPError(.tooManyRequests, message, headers: retryAfter(seconds))
    }

    /// 503 with `Retry-After`: a temporary outage (busy database, full worker pool).
    public static func serviceUnavailable(retryAfter seconds: Int, _ message: String) -> HTTPError {
        HTTPError(.serviceUnavailable, message, headers: retryAfter(seconds))
    }

    private static func retryAfter(_ seconds: Int) -> HTTPHeaders {
        var headers = HTTPHeaders()
        headers.add("Retry-After", String(max(1, seconds)))
        return headers
    }
}
