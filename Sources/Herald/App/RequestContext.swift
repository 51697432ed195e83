/// What Herald knows about the request beyond the request itself, filled in by
/// middleware and read by handlers and views. Every handler has the same shape:
/// `(Request, inout RequestContext) throws -> Response`.
public struct RequestContext: Sendable {
    /// The logged-in reader's name, or nil for an anonymous visitor.
    public var readerName: String?
    /// A one-shot message for this page (`role="status"`).
    public var flash: String?

    public init() {}
}
