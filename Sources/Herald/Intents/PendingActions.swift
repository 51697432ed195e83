import HTTP

/// The resumable-action mechanism: captures an anonymous POST to a resumable route into
/// the signed `herald_intent` cookie, and performs it through the route's own handler the
/// moment the reader logs in or registers. Nothing in here knows what any action does.
final class PendingActions: Sendable {
    static let lifetime = 15 * 60

    private let codec: IntentCodec
    private let performed: PerformedIntentStore
    private let parking: ParkedFormStore
    private let parkingLimits: ParkingLimits
    private let clock: Clock
    private let log: Logger
    /// Every resumable action, by name; fixed when the app is built.
    private let actions: [ResumableActionName: ResumableAction]
    /// For metrics: intents captured and performed (by action), and set aside (by reason).
    let captured = Tally()
    /// Every reason `refused` counts under.
    static let refusalReasons = [
        "unknown-action", "expired", "replayed", "parked-form-gone", "expired-text-returned", "forbidden", "oversized",
        "malformed", "unknown-version", "unknown-key", "bad-signature",
    ]
    let performedCount = Tally()
    let refused = Tally()

    init(
        actions: [ResumableAction], codec: IntentCodec, performed: PerformedIntentStore, parking: ParkedFormStore,
        parkingLimits: ParkingLimits = ParkingLimits(), clock: Clock, log: Logger
    ) {
        self.actions = Dictionary(actions.map { ($0.name, $0) }) { first, _ in first }
        self.codec = codec
        self.performed = performed
        self.parking = parking
        self.parkingLimits = parkingLimits
        self.clock = clock
        self.log = log
    }

    /// The route handler for a resumable action: a logged-in reader's POST goes to the action's
    /// handler, an anonymous one is captured.
    /// `router.post("/articles/:slug/like", intents.route(likeAction))`.
    func route(_ action: ResumableAction) -> Handler<RequestContext> {
        { [self] request, context in
            if context.user != nil { return try action.handler(request, &context) }
            return try capture(action, request, context)
        }
    }

    /// Anonymous POST → the intent cookie (replacing any earlier one) and 303 to /login.
    ///
    /// Its cost is bounded before anything is compressed, since no account is needed to send one:
    /// only the declared fields are kept, the action checks them with its own rules, and text
    /// larger than any valid input is refused unread by the compressor. A form that does not fit
    /// the cookie, or that carries a file, is parked server-side and the cookie names it.
    private func capture(_ action: ResumableAction, _ request: Request, _ context: RequestContext) throws -> Response {
        _ = try action.describe(request)  // 404 for an unknown target: nothing is stored
        let form = try request.form()
        let sent = action.keptFields.compactMap { name in form[name].map { (name, $0) } }
        let kept: [(String, String)]
        switch try action.check(sent, request, context) {
        case .keep(let fields): kept = fields
        case .refuse(let response): return response
        }
        let file = try action.keptFile.flatMap { name in try request.files().first { $0.name == name }?.bytes }
        let keptBytes = kept.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count }
        let now = clock.now()
        var intent = Intent(
            action: action.name.rawValue, parameters: request.parameters, fields: kept.map { [$0.0, $0.1] },
            returnPath: action.returnPath(request), issuedAt: now, expiresAt: now + Self.lifetime,
            id: Sodium.base64URL(Sodium.randomBytes(16)))
        let previous = verifiedIntent(request, logging: false)?.parked
        var cookie: String?
        if file == nil, keptBytes <= IntentCodec.maximumFieldBytes {
            cookie = try codec.encode(intent)
        }
        if cookie == nil {
            switch try parking.park(
                ParkedForm(fields: kept, file: file), owner: ClientAddressKey.key(for: context.clientAddress),
                replacing: previous, expiresAt: now + parkingLimits.lifetimeSeconds, now: now, limits: parkingLimits)
            {
            case .parked(let id):
                intent.fields = []
                intent.parked = id
                cookie = try codec.encode(intent)
            case .full:
                log.warning("a form was not parked: parking is full")
            }
        } else if let previous {
            try parking.discard(previous)
        }
        guard let cookie else {
            if let tooLarge = action.tooLarge { return try tooLarge(request, context) }
            throw HTTPError.serviceUnavailable(
                retryAfter: 60,
                "This is too large to keep while you log in right now. Please log in first, then send it again.")
        }
        captured.add(action.name.rawValue)
        var response = Response.redirect(to: "/login")
        response.setCookie(
            .herald(CookieNames.intent, cookie, maxAge: IntentCodec.keptSeconds, secure: context.isSecure))
        return response
    }

    /// Performs the pending action for a reader who has just logged in (`context.user` set).
    /// Returns nil when there is none, or when it is void — tampered, foreign, expired,
    /// replayed, malformed — which is logged (without the cookie) and otherwise ignored.
    /// The caller clears the cookie either way.
    func resume(_ request: Request, _ context: inout RequestContext) throws -> Response? {
        guard let intent = verifiedIntent(request) else { return nil }
        guard let action = ResumableActionName(rawValue: intent.action).flatMap({ actions[$0] }) else {
            log.warning("intent ignored: unknown action \(intent.action.prefix(40))")
            refused.add("unknown-action")
            return nil
        }
        let now = clock.now()
        let stale = intent.expiresAt <= now
        // Too old to perform: only its text matters, and only for an action that can give it back.
        if stale && action.putBack == nil {
            refused.add("expired")
            return nil
        }
        guard
            try performed.markPerformed(
                intent.id, expiresAt: intent.issuedAt + IntentCodec.keptSeconds, now: now)
        else {
            log.warning("intent ignored: already performed (replayed cookie)")
            refused.add("replayed")
            return nil
        }
        guard let replay = try replayRequest(intent, action: action, from: request) else {
            log.warning("intent ignored: its parked form is gone (expired or already taken)")
            refused.add("parked-form-gone")
            return nil
        }
        if stale, let putBack = action.putBack {
            // SPEC: an intent older than 15 minutes is never performed; the text goes back to its form.
            refused.add("expired-text-returned")
            return try putBack(replay, context)
        }
        do {
            // The same handler a logged-in POST reaches (unless the action resumes otherwise):
            // every check it makes is made again.
            let response = try action.resume(replay, &context)
            performedCount.add(action.name.rawValue)
            return response
        } catch let error as HTTPError where error.status == .forbidden {
            refused.add("forbidden")
            // Not allowed for the account that logged in (SPEC: refused with 403): the caller
            // answers with the refusal, and the login itself stands.
            throw Refused(error: error, response: action.refused?(error, replay, context))
        } catch let error as HTTPError where error.status == .notFound {
            context.nextFlash = "What you started before logging in can no longer be done: \(error.message)"
            return .redirect(to: "/")
        } catch let error as HTTPError {
            // Refused for another reason (a limit, a busy database): the login itself stands.
            context.nextFlash = "You are logged in, but what you started could not be done: \(error.message)"
            return .redirect(to: LocalPath.validated(intent.returnPath) ?? "/")
        }
    }

    /// A pending action the account that logged in may not perform.
    struct Refused: Error {
        let error: HTTPError
        /// The action's own answer (what the reader typed, shown back), when it has one.
        let response: Response?
    }

    /// What is pending, for the login and register pages; nil when nothing (valid) is.
    func describePending(_ request: Request) throws -> String? {
        guard let intent = verifiedIntent(request, logging: false),
            let action = ResumableActionName(rawValue: intent.action).flatMap({ actions[$0] })
        else { return nil }
        // A parked form is not read (that would take it): its action describes it without its text.
        return try? action.describe(Self.replayRequest(intent, fields: intent.fields, from: request))
    }

    /// Where `POST /intent/cancel` returns: the pending action's return path, or the front page.
    func cancelPath(_ request: Request) -> String {
        verifiedIntent(request, logging: false).flatMap { LocalPath.validated($0.returnPath) } ?? "/"
    }

    /// What the reader typed into the pending action (label, field name, text), for when it will
    /// not be performed; empty when nothing (valid) is pending or it carries no text.
    func pendingText(_ request: Request) throws -> [(label: String, name: String, text: String)] {
        guard let intent = verifiedIntent(request, logging: false),
            let action = ResumableActionName(rawValue: intent.action).flatMap({ actions[$0] })
        else { return [] }
        let fields: [(String, String)]
        if let id = intent.parked {
            fields = try parking.peek(id, now: clock.now())?.fields ?? []
        } else {
            fields = intent.fields.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil }
        }
        return action.typedText.compactMap { typed in
            fields.first { $0.0 == typed.field }.map { (typed.label, typed.field, $0.1) }
        }
    }

    /// Drops the pending action's parked form, if it has one (cancel, logout). The caller
    /// expires the cookie.
    func discard(_ request: Request) throws {
        if let parked = verifiedIntent(request, logging: false)?.parked { try parking.discard(parked) }
    }

    /// The captured POST rebuilt as a request, its fields from the cookie or from the parked form
    /// (taken: single use); nil when the parked form is gone.
    private func replayRequest(_ intent: Intent, action: ResumableAction, from request: Request) throws -> Request? {
        guard let id = intent.parked else { return Self.replayRequest(intent, fields: intent.fields, from: request) }
        guard let form = try parking.take(id, now: clock.now()) else { return nil }
        guard let bytes = form.file, let field = action.keptFile else {
            return Self.replayRequest(intent, fields: form.fields.map { [$0.0, $0.1] }, from: request)
        }
        let boundary = "herald-" + Sodium.hex(Sodium.randomBytes(16))
        let encoded = MultipartForm.encode(
            fields: form.fields, files: [MultipartForm.File(name: field, filename: "parked", bytes: bytes)],
            boundary: boundary)
        var replay = Request(
            method: .post, target: intent.returnPath, headers: HTTPHeaders([("Content-Type", encoded.contentType)]),
            body: encoded.body, remoteAddress: request.remoteAddress)
        replay.parameters = intent.parameters
        return replay
    }

    /// A urlencoded POST of `fields` to the intent's route.
    private static func replayRequest(_ intent: Intent, fields: [[String]], from request: Request) -> Request {
        let form = URLEncodedForm(fields.compactMap { $0.count == 2 ? ($0[0], $0[1]) : nil })
        var replay = Request(
            method: .post, target: intent.returnPath,
            headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
            body: Array(form.encoded.utf8), remoteAddress: request.remoteAddress)
        replay.parameters = intent.parameters
        return replay
    }

    private func verifiedIntent(_ request: Request, logging: Bool = true) -> Intent? {
        guard let cookie = request.cookies[CookieNames.intent] else { return nil }
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
