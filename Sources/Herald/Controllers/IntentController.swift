import HTTP

/// `POST /intent/cancel`: discard the pending action, back to its article (or `/`).
struct IntentController: Sendable {
    let intents: PendingActions

    func addRoutes(to router: inout Router<RequestContext>) {
        router.post("/intent/cancel") { request, context in
            var response = Response.redirect(to: intents.cancelPath(request, context))
            try intents.discard(request, context)
            if request.cookie(.intent, secure: context.isSecure) != nil {
                context.nextFlash = "The action you started is cancelled."
            }
            response.expireCookie(.intent, sentIn: request, secure: context.isSecure)
            return response
        }
    }
}
