import HTTP

/// The one list of POSTs that survive login (SPEC: every POST a reader, editor or moderator can
/// make is resumable), built once when the app is built. Each action's route is registered from
/// here, so a resumable route cannot exist without its entry, nor an entry without its route;
/// the POSTs that are deliberately not resumable are listed beside it with the reason, and a test
/// checks that every POST route is in exactly one of the two lists.
struct ResumableActions: Sendable {
    let all: [AnyResumableAction]

    /// POST routes that are not resumable, and why.
    static let notResumable: [String: String] = [
        "/login": "it is the login that a pending action waits for",
        "/register": "it is a login too (a new account)",
        "/logout": "there is nothing to log out of without a session",
        "/intent/cancel": "it discards the pending action itself",
        "/password/forgot": "it is asked for by someone who cannot log in",
        "/password/reset/:token": "its token is the proof of who it is for; it completes a login",
        "/account/email/confirm/:token": "its token is the proof: it needs no login (opened from a mail app)",
        "/login/link": "it is asked for by someone who is not logged in, to log in",
        "/login/link/:token": "it is the login that a pending action waits for",
        "/login/link/:token/confirm": "it performs the action the link carried, in the browser that logged in by it",
        "/login/link/:token/cancel": "it discards the action the link carried",
        "/mail/unsubscribe/:token":
            "its token is the proof: mail providers post it without cookies (RFC 8058 one-click), and it only turns reply mail off",
        "/editor/preview": "it changes nothing: the editor's script asks it for a live preview of the text",
        "/language": "it needs no login: anyone may choose the interface's language",
    ]

    /// Adds each action's POST route: a logged-in reader's POST is performed, an anonymous one
    /// captured (`PendingActions.route`). A form that checks a password is answered on the
    /// hashing pool.
    func register(on router: inout Router<RequestContext>, intents: PendingActions, hashingPool: WorkerPool) {
        for action in all {
            router.post(
                action.path, on: action.hashesPassword ? hashingPool : nil, maxBodyBytes: action.maxBodyBytes,
                intents.route(action))
        }
    }
}
