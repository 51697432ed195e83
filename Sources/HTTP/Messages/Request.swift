import TextSupport

/// One HTTP request, as a Swift value.
///
/// The server builds it from libmicrohttpd's callbacks. Decoding the target never
/// fails construction: a malformed request carries its `rejection`, which the
/// `RequestValidation` middleware throws, so even a refused request passes
/// through logging and security headers like any other.
public struct Request: Sendable {
    public let method: HTTPMethod
    /// The request target as received (`/articles/caf%C3%A9?page=2`); for logs.
    public let target: String
    /// The percent-decoded path, segment by segment (`/articles/café`).
    public let path: String
    /// The decoded path segments: `/articles/café` → `["articles", "café"]`.
    /// An encoded slash (`%2F`) stays inside its segment.
    public let pathSegments: [String]
    public let query: URLEncodedForm
    public let headers: HTTPHeaders
    public let cookies: RequestCookies
    /// The client's IP address as text, from the socket (not from any header).
    public let remoteAddress: String
    public internal(set) var body: [UInt8]
    /// Route parameters (`:slug`), filled in by the router.
    public var parameters: [String: String] = [:]
    /// Set when the request cannot be served as sent (bad encoding, too large, ambiguous framing).
    public var rejection: HTTPError?

    public init(
        method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = [],
        remoteAddress: String = "127.0.0.1", rejection: HTTPError? = nil
    ) {
        self.method = method
        self.target = target
        self.headers = headers
        self.body = body
        self.remoteAddress = remoteAddress
        self.cookies = RequestCookies(header: headers.values(for: "Cookie").joined(separator: "; "))
        self.rejection = rejection

        switch RequestTarget.parse(target) {
        case .success(let parsed):
            path = parsed.path
            pathSegments = parsed.segments
            query = parsed.query
        case .failure(let error):
            path = "/"
            pathSegments = []
            query = URLEncodedForm()
            self.rejection = self.rejection ?? error
        }
    }

    /// `head` (a request made before its body arrived) with its body; `rejection`, when there is
    /// one, comes first, as in the memberwise initializer.
    init(_ head: Request, body: [UInt8], rejection: HTTPError?) {
        self = head
        self.body = body
        self.rejection = rejection ?? head.rejection
    }

    /// The body's text fields, decoded from `application/x-www-form-urlencoded` or from
    /// `multipart/form-data` (its file parts are left out: see `files()`), so a handler reads
    /// either the same way. 415 for another declared content type; 400 for malformed encoding.
    public func form() throws(HTTPError) -> URLEncodedForm {
        if let contentType = headers["Content-Type"], Self.isMultipart(contentType) {
            return try multipart().fields
        }
        if let contentType = headers["Content-Type"] {
            guard Self.mediaType(of: contentType, is: "application/x-www-form-urlencoded") else {
                throw HTTPError(
                    .unsupportedMediaType,
                    "Forms must be sent as application/x-www-form-urlencoded or multipart/form-data.")
            }
        }
        return try body.withUnsafeBufferPointer { buffer throws(HTTPError) in try URLEncodedForm(parsing: buffer) }
    }

    /// The body's uploaded files: none for a urlencoded (or empty) body. 415 for another declared
    /// content type, 400 for a malformed multipart body.
    public func files() throws(HTTPError) -> [MultipartForm.File] {
        if let contentType = headers["Content-Type"], Self.isMultipart(contentType) {
            return try multipart().files
        }
        if let contentType = headers["Content-Type"],
            !Self.mediaType(of: contentType, is: "application/x-www-form-urlencoded")
        {
            throw HTTPError(.unsupportedMediaType, "Files must be sent as multipart/form-data.")
        }
        return []
    }

    /// The body parsed as `multipart/form-data`, fields and files at once (`form()` and `files()`
    /// each parse it again). 415 unless the request declares that content type.
    public func multipart(limits: MultipartForm.Limits = MultipartForm.Limits()) throws(HTTPError) -> MultipartForm {
        guard let contentType = headers["Content-Type"], Self.isMultipart(contentType) else {
            throw HTTPError(.unsupportedMediaType, "This form must be sent as multipart/form-data.")
        }
        let boundary = try MultipartForm.boundary(fromContentType: contentType)
        return try MultipartForm(parsing: body, boundary: boundary, limits: limits)
    }

    private static func isMultipart(_ contentType: String) -> Bool {
        mediaType(of: contentType, is: "multipart/form-data")
    }

    /// Whether a `Content-Type` value names `expected`, parameters aside.
    private static func mediaType(of contentType: String, is expected: String) -> Bool {
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first ?? ""
        return asciiCaseInsensitiveEquals(String(mediaType.trimmingASCIIWhitespace()), expected)
    }
}

/// Splits and decodes an origin-form request target (`/path?query`).
enum RequestTarget {
    struct Parsed {
        var path: String
        var segments: [String]
        var query: URLEncodedForm
    }

    static func parse(_ target: String) -> Result<Parsed, HTTPError> {
        var target = target
        return target.withUTF8 { bytes in
            guard bytes.first == UInt8(ascii: "/") else {
                return .failure(HTTPError(.badRequest, "The request target must be a path starting with “/”."))
            }
            let queryStart = bytes.firstIndex(of: UInt8(ascii: "?")) ?? bytes.count
            let rawPath = UnsafeBufferPointer(rebasing: bytes[1..<queryStart])
            var segments: [String] = []
            if !rawPath.isEmpty {
                var start = 0
                while start <= rawPath.count {
                    var end = start
                    while end < rawPath.count && rawPath[end] != UInt8(ascii: "/") { end += 1 }
                    guard
                        let segment = PercentDecoding.decode(
                            UnsafeBufferPointer(rebasing: rawPath[start..<end]), plusAsSpace: false)
                    else {
                        return .failure(HTTPError(.badRequest, "The path contains invalid percent-encoding."))
                    }
                    segments.append(segment)
                    start = end + 1
                }
            }
            var query = URLEncodedForm()
            if queryStart < bytes.count {
                do throws(HTTPError) {
                    query = try URLEncodedForm(parsing: UnsafeBufferPointer(rebasing: bytes[(queryStart + 1)...]))
                } catch {
                    return .failure(error)
                }
            }
            return .success(Parsed(path: "/" + segments.joined(separator: "/"), segments: segments, query: query))
        }
    }
}
