import HTTP

/// A POST route declared resumable: when an anonymous reader sends it, it is captured
/// and performed after they log in, by this same handler.
struct ResumableAction: Sendable {
    let name: String
    /// The route's own handler: the one logged-in readers reach directly.
    let handler: Handler<RequestContext>
    /// Says what the reader was doing ("like “Title”"), looking the target up: throws 404 when
    /// it does not exist, so nothing is captured for an unknown article.
    let describe: @Sendable (Request) throws -> String
    /// Where the reader lands after it is performed, or after cancelling it.
    let returnPath: @Sendable (Request) -> String
    /// The answer when the capture cannot fit in the cookie (e.g. a long comment that barely
    /// compresses): the form again, with the text kept. Defaults to a plain 422 page.
    let tooLarge: (@Sendable (Request, RequestContext) throws -> Response)?
}
