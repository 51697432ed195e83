import HTTP

/// Where a reader goes after logging in or registering, from `?next=` or the form's `next`:
/// a local path, and never the login, register or password pages themselves (they would
/// send a logged-in reader round in a circle).
enum NextPath {
    static func validated(_ candidate: String?) -> String? {
        guard let path = LocalPath.validated(candidate) else { return nil }
        let bare = path.prefix { $0 != "?" && $0 != "#" }
        for excluded in ["/login", "/register", "/password"] where bare == excluded || bare.hasPrefix(excluded + "/") {
            return nil
        }
        return path
    }
}
