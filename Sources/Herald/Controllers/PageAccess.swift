import HTTP

/// Who may open a page: someone logged out is sent to log in and brought back (303 to
/// `/login?next=…`); a reader without the role the page needs gets 403.
enum PageAccess {
    case allowed(User)
    case loginFirst(Response)

    static func check(_ request: Request, _ context: RequestContext, role: Role? = nil) throws(HTTPError)
        -> PageAccess
    {
        guard let user = context.user else {
            let here = LocalPath.validated(request.target) ?? "/"
            return .loginFirst(.redirect(to: "/login?next=" + PercentEncoding.encode(here)))
        }
        if let role, !user.roles.grants(role) {
            throw HTTPError(.forbidden, "This page is for the site's \(role.rawValue)s. Your account is not one.")
        }
        return .allowed(user)
    }
}
