import HTTP

/// The reply mail's unsubscribe link, `/mail/unsubscribe/{token}`, which works without logging in:
/// GET shows one button and changes nothing (mail scanners and link previews follow links); POST —
/// the button, or a mail provider's RFC 8058 one-click, sent with no cookie and no form token (the
/// cross-site check exempts this path: the token is the proof) — turns the mail off and says so.
struct ReplyMailController: Sendable {
    let replyMail: ReplyMail
    let views: Views

    static let noSuchLink = HTTPError(
        .notFound, "This unsubscribe link is not valid. You can turn mail about replies off on your account page.")

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get(ReplyMailPaths.unsubscribeRoute) { request, context in try page(request, context) }
        router.post(ReplyMailPaths.unsubscribeRoute) { request, context in try unsubscribe(request, context) }
    }

    private func token(_ request: Request) throws -> String {
        let token = request.parameters["token"] ?? ""
        guard token.utf8.count <= UnsubscribeTokens.maximumLength else { throw Self.noSuchLink }
        return token
    }

    func page(_ request: Request, _ context: RequestContext) throws -> Response {
        let token = try token(request)
        guard let username = try replyMail.subscriber(token: token) else { throw Self.noSuchLink }
        return try views.page(
            UnsubscribePage(token: token, username: username, done: false), title: "Stop mail about replies",
            context: context)
    }

    func unsubscribe(_ request: Request, _ context: RequestContext) throws -> Response {
        let token = try token(request)
        switch try replyMail.unsubscribe(token: token) {
        case .unsubscribed(let username):
            // 200 with the page, not a 303: a provider's one-click POST wants a plain success.
            return try views.page(
                UnsubscribePage(token: token, username: username, done: true), title: "Unsubscribed", context: context)
        case .noSuchToken:
            throw Self.noSuchLink
        }
    }
}
