import HTTP

/// The test browser over a real socket: one keep-alive connection to the server on
/// 127.0.0.1 (reopened if the server closed it). For what the network decides (framing,
/// limits, connections); rules and pages can use `InProcessClient` instead.
public final class TestClient: HTTPTestClient {
    public let port: Int
    public let cookieJar = CookieJar()
    public var defaultHeaders: [(String, String)] = []
    private var connection: RawHTTPConnection?

    public init(port: Int) { self.port = port }

    public var host: String { "127.0.0.1:\(port)" }

    public func send(_ method: String, _ target: String, headers: [(String, String)], body: [UInt8]) throws
        -> TestResponse
    {
        var head = "\(method) \(target) HTTP/1.1\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8) + body

        let response: TestResponse
        do {
            response = try exchange(bytes, forHead: method == "HEAD")
        } catch {
            // The server may have closed an idle keep-alive connection: retry once on a new one.
            connection = nil
            response = try exchange(bytes, forHead: method == "HEAD")
        }
        if response["Connection"]?.lowercased() == "close" { connection = nil }
        return response
    }

    private func exchange(_ bytes: [UInt8], forHead: Bool) throws -> TestResponse {
        let connection = try self.connection ?? RawHTTPConnection(port: port)
        self.connection = connection
        try connection.send(bytes)
        return try connection.readResponse(forHead: forHead)
    }
}
