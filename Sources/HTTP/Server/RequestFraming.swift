import TextSupport

/// Checks on how a request is framed, made before any of its body is read.
enum RequestFraming {
    /// Refuses what a proxy in front of us might read differently (request smuggling):
    /// two `Content-Length` headers, or `Content-Length` together with
    /// `Transfer-Encoding`. libmicrohttpd 0.9.75 accepts both. Also refuses a
    /// declared body larger than `maxBodyBytes` (413) so it is never read.
    static func check(_ headers: HTTPHeaders, maxBodyBytes: Int) -> HTTPError? {
        if headers.values(for: "Host").count > 1 {
            return HTTPError(.badRequest, "The request has more than one Host header.", closeConnection: true)
        }
        let lengths = headers.values(for: "Content-Length")
        let hasTransferEncoding = headers.contains("Transfer-Encoding")
        if lengths.count > 1 || (lengths.count == 1 && hasTransferEncoding) {
            return HTTPError(
                .badRequest, "The request's length is ambiguous (conflicting Content-Length or Transfer-Encoding).",
                closeConnection: true)
        }
        if let length = lengths.first {
            guard let declared = Int(Substring(length).trimmingASCIIWhitespace()), declared >= 0 else {
                return HTTPError(.badRequest, "The Content-Length header is not a number.", closeConnection: true)
            }
            if declared > maxBodyBytes {
                return HTTPError(
                    .payloadTooLarge,
                    "The request body is larger than the \(maxBodyBytes / 1024) KiB this site accepts.",
                    closeConnection: true)
            }
        }
        return nil
    }
}
