import HTTP

/// The resumable-action mechanism: an anonymous POST to a resumable route is captured into the
/// signed `herald_intent` cookie (or, too large for it, parked server-side), bound to the browser
/// that sent it; the moment that browser logs in, registers or resets its password, the action is
/// performed through the same `perform` a logged-in click calls. Nothing in here knows what any
/// action does.
final class PendingActions: Sendable {
    static let lifetime = 15 * 60

    private let codec: IntentCodec
    private let performed: PerformedIntentStore
    private let parking: Parking
    private let clock: Clock
    private let log: Logger
    /// Every resumable action, by name; fixed when the app is built.
    private let actions: [ResumableActionName: AnyResumableAction]
    /// The page that shows what a person typed when their action is not done (message, status,
    /// the labelled texts).
    private let showText:
        @Sendable (String, HTTPStatus, [(label: String, name: String, text: String)], RequestContext) -> Response
    /// For metrics: intents captured and performed (by action), and set aside (by reason).
    let captured = Tally()
    /// Every reason `refused` counts under.
    static let refusalReasons = [
        "unknown-action", "expired", "replayed", "parked-form-gone", "expired-text-returned", "forbidden", "oversized",
        "malformed", "unknown-version", "unknown-key", "bad-signature", "other-browser", "not-kept",
    ]
    let performedCount = Tally()
    let refused = Tally()

    init(
        actions: [AnyResumableAction], codec: IntentCodec, performed: PerformedIntentStore, parking: Parking,
        clock: Clock, log: Logger,
        showText:
            @escaping @Sendable (String, HTTPStatus, [(label: String, name: String, text: String)], RequestContext)
            -> Response
    ) {
        self.actions = Dictionary(actions.map { ($0.name, $0) }) { first, _ in first }
        self.codec = codec
        self.performed = performed
        self.parking = parking
        self.clock = clock
        self.log = log
        self.showText = showText
    }

    /// The route handler for a resumable action: a logged-in reader's POST is performed, an
    /// anonymous one (or one whose session expired) is captured.
    func route(_ action: AnyResumableAction) -> Handler<RequestContext> {
        { [self] request, context in
            let form = try action.form(of: request)
            guard let user = context.user else { return try capture(action, form, request, context) }
            return try perform(action, form, by: user, &context, reply: request.prefersJSON ? .json : .page)
        }
    }

    /// The one way an action is performed, live or resumed: the role it needs, then the action;
    /// an action refused for this account (403) shows back what was typed into it, to copy.
    private func perform(
        _ action: AnyResumableAction, _ form: KeptForm, by user: User, _ context: inout RequestContext, reply: Reply
    ) throws -> Response {
        if let requirement = action.role, !requirement.isMet(by: user) {
            return refusal(action, form, HTTPError(.forbidden, requirement.refusal), context)
        }
        do {
            return try action.perform(form, user, &context, reply)
        } catch let error as HTTPError
            where error.status == .forbidden && reply == .page && !action.typed(in: form).isEmpty
        {
            return refusal(action, form, error, context)
        }
    }

    private func refusal(_ action: AnyResumableAction, _ form: KeptForm, _ error: HTTPError, _ context: RequestContext)
        -> Response
    {
        let typed = action.typed(in: form)
        let message =
            typed.isEmpty ? error.message : error.message + " Nothing was done; here is what you wrote, to copy."
        return showText(message, error.status, typed, context)
    }

    /// Anonymous POST → the intent cookie (replacing any earlier one) and 303 to /login.
    ///
    /// Its cost is bounded before anything is compressed, since no account is needed to send one:
    /// only the declared fields are kept, the action checks them with its own rules, and text
    /// larger than any valid input is refused unread by the compressor. A form that does not fit
    /// the cookie, or that carries a file, is parked server-side (if parking takes it) and the
    /// cookie names it.
    private func capture(_ action: AnyResumableAction, _ sent: KeptForm, _ request: Request, _ context: RequestContext)
        throws -> Response
    {
        _ = try action.describe(sent, context.messages)  // 404 for an unknown target: nothing is stored
        var form: KeptForm
        switch try action.check(sent, context) {
        case .keep(let checked): form = checked
        case .refuse(let response): return response
        }
        let secret = Set(action.secretFields)
        form.fields.removeAll { secret.contains($0.0) }  // a password is never captured
        let now = clock.now()
        let browserID = context.csrf?.browserID ?? ""
        var intent = Intent(
            action: action.name.rawValue, parameters: form.parameters, fields: form.fields.map { [$0.0, $0.1] },
            returnPath: try action.returnPath(form), issuedAt: now, expiresAt: now + Self.lifetime,
            id: Sodium.base64URL(Sodium.randomBytes(16)), browser: BrowserID.digest(browserID))
        let previous = verifiedIntent(request, context, logging: false)?.parked
        var cookie: String?
        if form.file == nil, form.fieldBytes <= IntentCodec.maximumFieldBytes {
            cookie = try codec.encode(intent)
        }
        if cookie == nil {
            switch try parking.park(
                form, for: action, browser: intent.browser ?? "", replacing: previous, request, context)
            {
            case .parked(let id):
                intent.fields = []
                intent.parked = id
                cookie = try codec.encode(intent)
            case .refused(let reason):
                log.info("a form was not parked: \(reason)")
            }
        } else if let previous {
            try parking.discard(previous)
        }
        guard let cookie else {
            refused.add("not-kept")
            var shown = context
            if let again = try action.formAgain(form, .notKept, &shown) { return again }
            throw HTTPError(
                .unprocessableContent,
                "This is too large to keep while you log in. Please log in first, then send it again.")
        }
        captured.add(action.name.rawValue)
        var response = Response.redirect(to: "/login")
        response.setCookie(.herald(.intent, cookie, maxAge: IntentCodec.keptSeconds, secure: context.isSecure))
        return response
    }

    /// Performs the pending action for `user`, who has just logged in, registered or reset their
    /// password in this request. Nil when there is none, or when it is void — tampered, expired,
    /// replayed, malformed, or begun in another browser — which is logged (without the cookie) and
    /// otherwise ignored (another browser's is also told to the reader). The caller clears the
    /// cookie either way. Whatever the action answers is the answer, errors included: the login
    /// itself stands.
    func resume(_ request: Request, _ context: inout RequestContext, user: User) throws -> Response? {
        guard let intent = verifiedIntent(request, context) else { return nil }
        guard let action = ResumableActionName(rawValue: intent.action).flatMap({ actions[$0] }) else {
            log.warning("intent ignored: unknown action \(intent.action.prefix(40))")
            refused.add("unknown-action")
            return nil
        }
        guard let browser = intent.browser,
            BrowserID.matches(browser, id: request.cookie(.browser, secure: context.isSecure))
        else {
            // Carried here from another browser (copied, or planted): never performed.
            log.warning("intent ignored: it was begun in another browser")
            refused.add("other-browser")
            if let parked = intent.parked { try parking.discard(parked) }
            context.nextFlash = Self.otherBrowser
            return nil
        }
        return try perform(intent, action, browser: browser, &context, user: user)
    }

    /// Performs `intent` for `user`: once (replays are refused), never when older than 15 minutes
    /// (its text then goes back to its form), and through the same `perform` a live click makes.
    private func perform(
        _ intent: Intent, _ action: AnyResumableAction, browser: String, _ context: inout RequestContext, user: User
    ) throws -> Response? {
        let now = clock.now()
        let stale = intent.expiresAt <= now
        // Too old to perform: only its text matters, and only for an action that can give it back.
        if stale && !action.hasFormAgain {
            refused.add("expired")
            return nil
        }
        guard try performed.markPerformed(intent.id, expiresAt: intent.issuedAt + IntentCodec.keptSeconds, now: now)
        else {
            log.warning("intent ignored: already performed (replayed cookie)")
            refused.add("replayed")
            return nil
        }
        guard let form = try keptForm(of: intent, browser: browser) else {
            log.warning("intent ignored: its parked form is gone (expired or already taken)")
            refused.add("parked-form-gone")
            return nil
        }
        if stale {
            // SPEC: an intent older than 15 minutes is never performed; the text goes back to its form.
            refused.add("expired-text-returned")
            return try action.formAgain(form, .waitedTooLong, &context)
        }
        if !action.performedAfterLogin {
            return try action.formAgain(form, .retypePassword, &context)
        }
        do {
            let response = try perform(action, form, by: user, &context, reply: .page)
            performedCount.add(action.name.rawValue)
            return response
        } catch let error as HTTPError {
            // Refused for another reason (a limit, a target gone): said on its page, with anything
            // typed shown back; the login itself stands.
            refused.add("forbidden")
            return showText(
                "You are logged in, but what you started could not be done: " + error.message, error.status,
                action.typed(in: form), context)
        }
    }

    static let otherBrowser =
        "Something was started in another browser and carried here; it was not done. An action is only completed in the browser where it began."

    /// The action pending in this browser, as its signed cookie, to travel with a mailed sign-in
    /// link; nil when none (valid, begun here) is.
    func pendingCookie(_ request: Request, _ context: RequestContext) -> String? {
        guard pending(request, context) != nil else { return nil }
        return request.cookie(.intent, secure: context.isSecure)
    }

    /// What a carried intent (a signed cookie value that came with a link) will do, and what was
    /// typed into it, shown in full before the reader confirms it; nil when it is void.
    func describeCarried(_ cookie: String, messages: Messages) throws -> (
        what: String, typed: [(label: String, name: String, text: String)]
    )? {
        guard case .success(let intent) = codec.decode(cookie, now: clock.now()),
            let action = ResumableActionName(rawValue: intent.action).flatMap({ actions[$0] }),
            let browser = intent.browser
        else { return nil }
        var form = KeptForm(parameters: intent.parameters, fields: Self.pairs(intent.fields))
        if let id = intent.parked {
            form.fields = try parking.peek(id, browser: browser, now: clock.now())?.fields ?? []
        }
        guard let what = try? action.describe(form, messages) else { return nil }
        return (what, action.typed(in: form))
    }

    /// Performs an intent carried by a mailed link, once the reader has confirmed it in this browser
    /// (or opened the link in the browser that began it). Its signature is checked again; it is
    /// performed at most once, like any intent.
    func performCarried(_ cookie: String, _ context: inout RequestContext, user: User) throws -> Response? {
        guard case .success(let intent) = codec.decode(cookie, now: clock.now()),
            let action = ResumableActionName(rawValue: intent.action).flatMap({ actions[$0] }),
            let browser = intent.browser
        else {
            refused.add("malformed")
            return nil
        }
        return try perform(intent, action, browser: browser, &context, user: user)
    }

    /// Drops a carried intent's parked form (the reader cancelled it).
    func discardCarried(_ cookie: String) throws {
        guard case .success(let intent) = codec.decode(cookie, now: clock.now()), let parked = intent.parked else {
            return
        }
        try parking.discard(parked)
    }

    /// What the login, register and reset pages say of a pending action: what it does ("like
    /// “Title”") and the label of the button that cancels it ("Cancel the like").
    struct Description: Sendable, Equatable {
        let text: String
        let cancelLabel: String
        /// The pages' lines naming it, in the request's language: the login page's ("Log in to
        /// like “Title”."), the register page's, its link to log in, the reset page's, the
        /// sign-in-link page's.
        let loginLine: String
        let registerLine: String
        let loginLinkLine: String
        let resetLine: String
        let linkLine: String

        init(text: String, cancelLabel: String, messages: Messages) {
            self.text = text
            self.cancelLabel = cancelLabel
            loginLine = messages.format("pending_log_in", ["action": text])
            registerLine = messages.format("pending_register", ["action": text])
            loginLinkLine = messages.format("pending_log_in_link", ["action": text])
            resetLine = messages.format("pending_reset", ["action": text])
            linkLine = messages.format("pending_login_link", ["action": text])
        }
    }

    /// What is pending in this browser, for the login, register and reset pages; nil when
    /// nothing (valid, begun here) is.
    func describePending(_ request: Request, _ context: RequestContext) throws -> Description? {
        guard let (intent, action) = pending(request, context) else { return nil }
        var form = KeptForm(parameters: intent.parameters, fields: Self.pairs(intent.fields))
        if let id = intent.parked, let browser = intent.browser {
            // A parked form is looked at, not taken (its file is not read).
            form.fields = try parking.peek(id, browser: browser, now: clock.now())?.fields ?? []
        }
        guard let text = try? action.describe(form, context.messages) else { return nil }
        return Description(
            text: text, cancelLabel: context.text("cancel_" + action.name.messageKey), messages: context.messages)
    }

    /// Where `POST /intent/cancel` returns: the pending action's return path, or the front page.
    func cancelPath(_ request: Request, _ context: RequestContext) -> String {
        verifiedIntent(request, context, logging: false).flatMap { LocalPath.validated($0.returnPath) } ?? "/"
    }

    /// What the reader typed into the pending action (label, field name, text), for when it will
    /// not be performed; empty when nothing (valid, begun here) is pending or it carries no text.
    func pendingText(_ request: Request, _ context: RequestContext) throws -> [(
        label: String, name: String, text: String
    )] {
        guard let (intent, action) = pending(request, context) else { return [] }
        var form = KeptForm(parameters: intent.parameters, fields: Self.pairs(intent.fields))
        if let id = intent.parked, let browser = intent.browser {
            form.fields = try parking.peek(id, browser: browser, now: clock.now())?.fields ?? []
        }
        return action.typed(in: form)
    }

    /// Drops the pending action's parked form, if it has one (cancel, logout). The caller
    /// expires the cookie.
    func discard(_ request: Request, _ context: RequestContext) throws {
        if let parked = verifiedIntent(request, context, logging: false)?.parked { try parking.discard(parked) }
    }

    /// The intent and its action when one is pending and was begun in this browser.
    private func pending(_ request: Request, _ context: RequestContext) -> (Intent, AnyResumableAction)? {
        guard let intent = verifiedIntent(request, context, logging: false),
            let action = ResumableActionName(rawValue: intent.action).flatMap({ actions[$0] }),
            let browser = intent.browser,
            BrowserID.matches(browser, id: request.cookie(.browser, secure: context.isSecure))
        else { return nil }
        return (intent, action)
    }

    /// The intent's form: from the cookie, or its parked copy (taken: single use); nil when the
    /// parked copy is gone.
    private func keptForm(of intent: Intent, browser: String) throws -> KeptForm? {
        guard let id = intent.parked else {
            return KeptForm(parameters: intent.parameters, fields: Self.pairs(intent.fields))
        }
        guard let parked = try parking.take(id, browser: browser, now: clock.now()) else { return nil }
        return KeptForm(parameters: intent.parameters, fields: parked.fields, file: parked.file)
    }

    private static func pairs(_ fields: [[String]]) -> [(String, String)] {
        fields.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
    }

    private func verifiedIntent(_ request: Request, _ context: RequestContext, logging: Bool = true) -> Intent? {
        guard let cookie = request.cookie(.intent, secure: context.isSecure) else { return nil }
        switch codec.decode(cookie, now: clock.now()) {
        case .success(let intent):
            return intent
        case .failure(let reason):
            if logging {
                log.warning("intent cookie ignored: \(reason)")
                refused.add(reason.metricLabel)
            }
            return nil
        }
    }
}
