import TextSupport

/// Cookies sent by the client, parsed from `Cookie` headers (RFC 6265 §5.4).
public struct RequestCookies: Sendable {
    private var pairs: [(name: String, value: String)] = []

    public init() {}

    /// Parses `a=1; b=2`. Malformed pieces are skipped rather than failing the
    /// request: a browser may hold cookies from other software on the same host.
    public init(header: String) {
        for piece in header.utf8.split(separator: UInt8(ascii: ";")) {
            guard let equals = piece.firstIndex(of: UInt8(ascii: "=")) else { continue }
            let name = piece[piece.startIndex..<equals].trimmingASCII(where: ASCII.isSpaceOrTab)
            var value = piece[piece.index(after: equals)...].trimmingASCII(where: ASCII.isSpaceOrTab)
            if value.count >= 2, value.first == UInt8(ascii: "\""), value.last == UInt8(ascii: "\"") {
                value = value.dropFirst().dropLast()
            }
            guard !name.isEmpty,
                let nameString = String(validating: name, as: UTF8.self),
                let valueString = String(validating: value, as: UTF8.self)
            else { continue }
            pairs.append((name: nameString, value: valueString))
        }
    }

    /// The first cookie called `name`. Browsers send the most specific path first.
    public subscript(name: String) -> String? {
        for pair in pairs where pair.name == name { return pair.value }
        return nil
    }

    public var count: Int { pairs.count }
}

/// A `Set-Cookie` header value, built from its attributes.
public struct SetCookie: Sendable, Equatable {
    public enum SameSite: String, Sendable {
        case strict = "Strict"
        case lax = "Lax"
        case none = "None"
    }

    public var name: String
    public var value: String
    public var maxAge: Int?
    public var path: String?
    public var httpOnly: Bool
    public var sameSite: SameSite?
    public var secure: Bool

    /// Every attribute is the caller's choice; an app names its own defaults in one place.
    public init(
        name: String, value: String, maxAge: Int? = nil, path: String?, httpOnly: Bool, sameSite: SameSite?,
        secure: Bool
    ) {
        self.name = name
        self.value = value
        self.maxAge = maxAge
        self.path = path
        self.httpOnly = httpOnly
        self.sameSite = sameSite
        self.secure = secure
    }

    /// The same cookie, telling the browser to delete it at once (attributes must match to replace it).
    public var expired: SetCookie {
        var cookie = self
        cookie.value = ""
        cookie.maxAge = 0
        return cookie
    }

    public var headerValue: String {
        var header = "\(name)=\(value)"
        if let maxAge { header += "; Max-Age=\(maxAge)" }
        if let path { header += "; Path=\(path)" }
        if httpOnly { header += "; HttpOnly" }
        if let sameSite { header += "; SameSite=\(sameSite.rawValue)" }
        if secure { header += "; Secure" }
        return header
    }
}
