import HTTP

/// The test browser without a network: each request becomes a `Request` value handed to
/// `responder.respond(to:)` on the calling thread, and the `Response` is read back as a
/// client would read it off the wire.
///
/// What the server layer does around `respond(to:)` is reproduced or refused, never guessed:
/// - the request comes from `remoteAddress` (127.0.0.1, as a loopback socket reports it);
/// - a HEAD answer loses its body but keeps the length of the body a GET would get, as
///   libmicrohttpd sends it; `Content-Length` is added as libmicrohttpd adds it;
/// - routes declared on a worker pool (password hashing) are answered on the calling thread:
///   the pool only decides which thread answers, and "pool full" (503) is a server matter;
/// - requests the server refuses before `respond(to:)` (ambiguous framing, a second Host, a
///   body over the limit) throw: those belong in socket tests.
/// Not reproduced: the `Date` header, keep-alive and connection limits, header-size limits.
public final class InProcessClient: HTTPTestClient {
    public let responder: any Responder
    public let host: String
    public let remoteAddress: String
    public let maxBodyBytes: Int
    public let cookieJar = CookieJar()
    public var defaultHeaders: [(String, String)] = []

    public init(
        responder: any Responder, host: String, maxBodyBytes: Int, remoteAddress: String = "127.0.0.1"
    ) {
        self.responder = responder
        self.host = host
        self.maxBodyBytes = maxBodyBytes
        self.remoteAddress = remoteAddress
    }

    public func send(_ method: String, _ target: String, headers: [(String, String)], body: [UInt8]) throws
        -> TestResponse
    {
        let headers = HTTPHeaders(headers)
        try checkFraming(headers, body: body)
        let request = Request(
            method: HTTPMethod(method), target: target, headers: headers, body: body, remoteAddress: remoteAddress)
        let response = responder.respond(to: request)
        let status = response.status.code
        var received = response.headers
        // libmicrohttpd states every length but of 1xx and 204 answers, 304 (as 0) included.
        if !(100..<200).contains(status) && status != 204 {
            received.set("Content-Length", "\(response.body.count)")
        }
        let bodyReceived = method == "HEAD" || status == 304 || status == 204 ? [] : response.body
        return TestResponse(status: status, headers: received, body: bodyReceived)
    }

    /// What the server answers itself before any handler runs is not for this client to fake.
    private func checkFraming(_ headers: HTTPHeaders, body: [UInt8]) throws {
        let lengths = headers.values(for: "Content-Length")
        guard headers.values(for: "Host").count <= 1, lengths.count <= 1, !headers.contains("Transfer-Encoding"),
            lengths.allSatisfy({ $0 == "\(body.count)" })
        else {
            throw TestClientError("framing is decided by the server: test it over a socket (TestClient)")
        }
        guard body.count <= maxBodyBytes else {
            throw TestClientError("bodies over \(maxBodyBytes) bytes are refused by the server: test it over a socket")
        }
    }
}
