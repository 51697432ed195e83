import HTTP

/// Who may open a page, said once, by the route group that holds its routes: someone logged out is
/// sent to log in and brought back (303 to `/login?next=…`); an account without the role the pages
/// need gets 403. (Resumable POSTs are guarded by the role their action declares, and every
/// service operation that needs a role checks the acting account again.)
enum RouteGuards {
    /// Any account.
    static let readers: RouteGuard<RequestContext> = { request, context in try admit(request, context, role: nil) }
    static let editors: RouteGuard<RequestContext> = { request, context in try admit(request, context, role: .editor) }
    static let moderators: RouteGuard<RequestContext> = { request, context in
        try admit(request, context, role: .moderator)
    }

    private static func admit(_ request: Request, _ context: RequestContext, role: Role?) throws(HTTPError)
        -> Response?
    {
        guard let user = context.user else {
            let here = LocalPath.validated(request.target) ?? "/"
            return .redirect(to: "/login?next=" + PercentEncoding.encode(here))
        }
        if let role, !user.roles.grants(role) {
            throw HTTPError(.forbidden, "This page is for the site's \(role.rawValue)s. Your account is not one.")
        }
        return nil
    }
}

extension RoleRequirement {
    /// The guard of a resumable POST: whether `user` holds the role its action declares (checked
    /// for the live click and the resumed action alike, before the service checks it again).
    func isMet(by user: User) -> Bool {
        user.roles.grants(role)
    }
}

extension RequestContext {
    /// The logged-in reader, for a handler behind a guard (which has already sent anyone else away).
    func signedIn() throws(HTTPError) -> User {
        guard let user else { throw HTTPError(.forbidden, "Please log in first.") }
        return user
    }
}
