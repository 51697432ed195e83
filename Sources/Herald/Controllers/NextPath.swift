import HTTP

/// Where a reader goes after logging in or registering, from `?next=` or the form's `next`:
/// a local path, and never the login, register or password pages themselves (they would
/// send a logged-in reader round in a circle).
///
/// On bytes: the header's links ask this for every page served.
enum NextPath {
    private static let excluded: [[UInt8]] = ["/login", "/register", "/password"].map { Array($0.utf8) }

    static func validated(_ candidate: String?) -> String? {
        guard let path = LocalPath.validated(candidate) else { return nil }
        let bytes = path.utf8
        let bare = bytes[..<(bytes.firstIndex { $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? bytes.endIndex)]
        for page in excluded where bare.starts(with: page) {
            let rest = bare.dropFirst(page.count)
            if rest.isEmpty || rest.first == UInt8(ascii: "/") { return nil }
        }
        return path
    }
}
