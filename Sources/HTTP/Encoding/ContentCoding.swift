/// The content codings Herald can send, best first: the order breaks ties between equal q-values
/// (RFC 9110 leaves ties to the server; br is smallest, then zstd, then gzip).
public enum ContentCoding: String, Sendable, CaseIterable {
    case br
    case zstd
    case gzip
    case identity

    /// The codings that compress, in order of preference.
    public static let compressing: [ContentCoding] = [.br, .zstd, .gzip]

    /// The `Content-Encoding` token (none for identity).
    public var token: String { rawValue }
}
