import Synchronization
import TextSupport

/// Compresses compressible responses of 1 KiB or more in the coding the client prefers among
/// br, zstd and gzip (`AcceptEncoding`), and says `Vary: Accept-Encoding` on every compressible
/// response. A response that carries its body precompressed (a shared page's template) is served
/// from that; any other is compressed as it goes, at the per-response level.
public struct Compression<Context>: Middleware {
    public static var minimumSize: Int { 1024 }

    private let encoder: PageEncoder
    /// The last header read and what it said: a browser sends the same one on every request.
    private let lastHeader = LastAcceptEncoding()

    public init(encoder: PageEncoder = PageEncoder()) { self.encoder = encoder }

    public func handle(_ request: Request, context: inout Context, next: Next<Context>) throws -> Response {
        var response = try next(request, &context)
        guard let contentType = response.headers["Content-Type"], Self.isCompressible(contentType) else {
            return response
        }
        // Beside what else the response varies by (an app's `Vary: Accept-Language`). Compared, not
        // searched: `String.contains` goes through Foundation, 7,000 instructions a response.
        if let vary = response.headers["Vary"] {
            if vary == "Accept-Language" {
                response.headers.set("Vary", "Accept-Language, Accept-Encoding")
            } else if !vary.hasSuffix("Accept-Encoding") {
                response.headers.set("Vary", vary + ", Accept-Encoding")
            }
        } else {
            response.headers.add("Vary", "Accept-Encoding")
        }
        guard response.body.count >= Self.minimumSize, !response.headers.contains("Content-Encoding"),
            let coding = lastHeader.preferred(request.headers["Accept-Encoding"])
        else { return response }
        if let encoded = response.precompressed?.body(in: coding) {
            encoder.counts.record(.servedFromTemplate, coding)
            response.body = encoded
        } else if let encoded = encoder.compress(response.body, as: coding) {
            response.body = encoded
        } else {
            return response
        }
        response.headers.set("Content-Encoding", coding.token)
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
        header != nil && AcceptEncoding(header).accepts(.gzip)
    }
}

/// The coding chosen for the last `Accept-Encoding` header seen, kept so that the same header
/// is not read again for every response.
private final class LastAcceptEncoding: Sendable {
    private let last = Mutex<(header: String, coding: ContentCoding?)?>(nil)

    func preferred(_ header: String?) -> ContentCoding? {
        guard let header else { return nil }
        if let last = last.withLock({ $0 }), last.header == header { return last.coding }
        let coding = AcceptEncoding(header).preferred()
        last.withLock { $0 = (header, coding) }
        return coding
    }
}

/// Besides `text/*`, the media types `Compression` compresses.
private let compressibleMediaTypes = [
    "application/json", "application/javascript", "application/atom+xml", "application/xml",
    "image/svg+xml", "application/feed+json",
]
