import TextSupport

/// gzips compressible responses of 1 KiB or more when the client accepts gzip.
public struct Compression<Context>: Middleware {
    public static var minimumSize: Int { 1024 }

    private let gzip: Gzip

    public init(gzip: Gzip = Gzip()) { self.gzip = gzip }

    public func handle(_ request: Request, context: inout Context, next: Next<Context>) throws -> Response {
        var response = try next(request, &context)
        guard let contentType = response.headers["Content-Type"], Self.isCompressible(contentType) else {
            return response
        }
        response.headers.set("Vary", "Accept-Encoding")
        guard response.body.count >= Self.minimumSize, !response.headers.contains("Content-Encoding"),
            Self.acceptsGzip(request.headers["Accept-Encoding"]),
            let compressed = gzip.compress(response.body)
        else { return response }
        response.body = compressed
        response.headers.set("Content-Encoding", "gzip")
        return response
    }

    /// Text-like types worth compressing; images and archives already are compressed.
    /// Asked for every response, so it compares bytes and allocates nothing.
    public static func isCompressible(_ contentType: String) -> Bool {
        var contentType = contentType
        return contentType.withUTF8 { bytes in
            let end = bytes.firstIndex(of: UInt8(ascii: ";")) ?? bytes.count
            let type = UnsafeBufferPointer(rebasing: bytes[..<end])
            if type.starts(with: "text/".utf8) { return true }
            return compressibleMediaTypes.contains { $0.utf8.elementsEqual(type) }
        }
    }

    /// Whether an `Accept-Encoding` value allows gzip (`gzip;q=0` refuses it).
    public static func acceptsGzip(_ header: String?) -> Bool {
        guard let header else { return false }
        for item in header.split(separator: ",") {
            let parts = item.split(separator: ";").map { $0.trimmingASCIIWhitespace() }
            guard let coding = parts.first, coding.lowercased() == "gzip" || coding == "*" else { continue }
            let refused = parts.dropFirst().contains { parameter in
                let compact = String(parameter.filter { $0 != " " })
                return compact == "q=0" || compact == "q=0.0" || compact == "q=0.00" || compact == "q=0.000"
            }
            return !refused
        }
        return false
    }
}

/// Besides `text/*`, the media types `Compression` compresses.
private let compressibleMediaTypes = [
    "application/json", "application/javascript", "application/atom+xml", "application/xml",
    "image/svg+xml", "application/feed+json",
]
