/// One HTTP response: status, headers and the whole body in memory.
public struct Response: Sendable {
    public var status: HTTPStatus
    public var headers: HTTPHeaders
    /// Setting it forgets `precompressed`, which was made for the body before.
    public var body: [UInt8] {
        didSet { precompressed = nil }
    }
    /// The body in other content codings, made without compressing it again (a shared page's
    /// template with this reader's values written in); `Compression` asks it first.
    public var precompressed: Precompressed?

    public init(status: HTTPStatus = .ok, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public static func html(_ body: [UInt8], status: HTTPStatus = .ok) -> Response {
        Response(status: status, headers: HTTPHeaders([("Content-Type", "text/html; charset=utf-8")]), body: body)
    }

    public static func html(_ body: String, status: HTTPStatus = .ok) -> Response {
        html(Array(body.utf8), status: status)
    }

    public static func text(_ body: String, status: HTTPStatus = .ok) -> Response {
        Response(
            status: status, headers: HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")]),
            body: Array(body.utf8))
    }

    /// A redirect, 303 See Other by default so that browsers and `curl -L` follow a POST with a GET.
    /// `location` must be a local path; callers that take it from input check it with `LocalPath`.
    /// It may be an IRI (`/articles/渡輪`, as pages link to it): the header carries it
    /// percent-encoded, ASCII only, as RFC 9110 requires of a URI reference.
    public static func redirect(to location: String, status: HTTPStatus = .seeOther) -> Response {
        Response(status: status, headers: HTTPHeaders([("Location", PercentEncoding.uri(fromIRI: location))]))
    }

    public mutating func setCookie(_ cookie: SetCookie) {
        headers.add("Set-Cookie", cookie.headerValue)
    }

    /// Asks the server to close the connection after this response.
    public var closesConnection: Bool {
        get { headers["Connection"].map { asciiCaseInsensitiveEquals($0, "close") } ?? false }
        set { if newValue { headers.set("Connection", "close") } else { headers.remove("Connection") } }
    }
}

/// A response body already compressed, or cheap to make so, per content coding.
public struct Precompressed: Sendable {
    private let encoded: @Sendable (ContentCoding) -> [UInt8]?

    /// `encoded` answers a coding with the body in it, or nil to have it compressed as usual.
    public init(_ encoded: @escaping @Sendable (ContentCoding) -> [UInt8]?) {
        self.encoded = encoded
    }

    public func body(in coding: ContentCoding) -> [UInt8]? { encoded(coding) }
}
