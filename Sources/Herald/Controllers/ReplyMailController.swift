import HTTP

/// The reply mail's unsubscribe link, `/mail/unsubscribe/{token}`, which works without logging in:
/// GET shows one button and changes nothing (mail scanners and link previews follow links); POST —
/// the button, or a mail provider's RFC 8058 one-click, sent with no cookie and no form token (the
/// token in the path stands in for the form's) — turns the mail off and, like every state change,
/// answers 303 to the same address, whose page then says the mail is off.
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
        guard let subscriber = try replyMail.subscriber(token: token) else { throw Self.noSuchLink }
        return try views.page(
            UnsubscribePage(token: token, username: subscriber.username, done: !subscriber.isOn),
            title: context.text(subscriber.isOn ? "title_unsubscribe" : "title_unsubscribed"), context: context)
    }

    func unsubscribe(_ request: Request, _ context: RequestContext) throws -> Response {
        let token = try token(request)
        switch try replyMail.unsubscribe(token: token) {
        case .unsubscribed:
            return .redirect(to: ReplyMailPaths.unsubscribe(token))
        case .noSuchToken:
            throw Self.noSuchLink
        }
    }
}
