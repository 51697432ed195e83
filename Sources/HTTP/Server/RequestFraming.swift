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
            if declared > maxBodyBytes { return tooLarge(maxBodyBytes) }
        }
        return nil
    }

    /// 413 for a body past `limit`; the connection is closed, since its body is left unread.
    static func tooLarge(_ limit: Int) -> HTTPError {
        HTTPError(
            .payloadTooLarge, "The request body is larger than the \(size(limit)) this address accepts.",
            closeConnection: true)
    }

    /// 413 for a body past the server's own `limit` on a route that takes more, but only from
    /// clients the app admits (`Responder.largeBodyClient(for:)`). The same status as any body
    /// past the limit that applies to its sender — it is too large *for this sender*, and a 413
    /// tells a browser's user to do something other than wait, where a 503 would invite retries —
    /// and the same closed connection, since the body is left unread.
    static func tooLargeForAStranger(_ limit: Int) -> HTTPError {
        HTTPError(
            .payloadTooLarge,
            "This address accepts a body larger than \(size(limit)) only from a logged-in browser. "
                + "Nothing was read or kept: go back to the form, where your browser still has what you typed, "
                + "log in in another tab, then send it again.",
            closeConnection: true)
    }

    /// `6 MiB`, `64 KiB`, `100 bytes`.
    static func size(_ bytes: Int) -> String {
        if bytes >= 1 << 20 && bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
