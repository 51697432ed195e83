import HTTP

/// A small browser for tests: a cookie jar, default headers, form posts, optional redirect
/// following. How a request travels is the conforming type's business: `TestClient` writes it
/// to a socket, `InProcessClient` hands it to the responder. Code written against this protocol
/// runs over either, so a test moves between them by changing how its client is made.
public protocol HTTPTestClient: AnyObject {
    /// The `Host` header sent when a test sends none (`127.0.0.1:PORT`).
    var host: String { get }
    /// Cookies as the server last set them; shared code reads and fills it.
    var cookieJar: CookieJar { get }
    /// Headers added to every request (e.g. `Sec-Fetch-Site: same-origin`).
    var defaultHeaders: [(String, String)] { get set }
    /// Sends one request with exactly these headers (Host, Cookie and Content-Length included)
    /// and returns the answer as a client would read it off the wire.
    func send(_ method: String, _ target: String, headers: [(String, String)], body: [UInt8]) throws -> TestResponse
}

extension HTTPTestClient {
    /// Cookies by name, as the server last set them (Max-Age=0 deletes).
    public var cookies: [String: String] { cookieJar.cookies }

    public func setCookie(_ name: String, _ value: String?) {
        cookieJar.cookies[name] = value
    }

    public func get(_ path: String, headers: [(String, String)] = []) throws -> TestResponse {
        try request("GET", path, headers: headers)
    }

    public func head(_ path: String, headers: [(String, String)] = []) throws -> TestResponse {
        try request("HEAD", path, headers: headers)
    }

    public func post(_ path: String, form: [(String, String)], headers: [(String, String)] = []) throws -> TestResponse
    {
        let body = URLEncodedForm(form).encoded
        return try request(
            "POST", path, headers: [("Content-Type", "application/x-www-form-urlencoded")] + headers,
            body: Array(body.utf8))
    }

    /// Follows 3xx redirects with GET, like a browser after a POST.
    public func follow(_ response: TestResponse, limit: Int = 5) throws -> TestResponse {
        var response = response
        var hops = 0
        while (300..<400).contains(response.status), let location = response["Location"], hops < limit {
            response = try get(location)
            hops += 1
        }
        return response
    }

    /// Adds what a browser adds (Host, the jar's cookies, Content-Length), sends, and keeps
    /// the cookies the answer sets.
    public func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> TestResponse {
        var fields: [(String, String)] = []
        if !(defaultHeaders + headers).contains(where: { $0.0.lowercased() == "host" }) {
            fields.append(("Host", host))
        }
        fields += defaultHeaders + headers
        if let cookie = cookieJar.header { fields.append(("Cookie", cookie)) }
        if !body.isEmpty || method == "POST" { fields.append(("Content-Length", "\(body.count)")) }
        let response = try send(method, path, headers: fields, body: body)
        cookieJar.store(response.headers.values(for: "Set-Cookie"))
        return response
    }
}

/// Cookies by name, kept the way a browser keeps them for one site.
public final class CookieJar {
    public var cookies: [String: String] = [:]

    public init() {}

    /// The `Cookie` header for the next request, nil when the jar is empty.
    var header: String? {
        cookies.isEmpty
            ? nil : cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
    }

    /// Applies `Set-Cookie` header values in order; `Max-Age=0` deletes.
    func store(_ setCookies: [String]) {
        for header in setCookies {
            let parts = header.split(separator: ";")
            guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { continue }
            let name = String(pair[..<equals]).trimmingSpaces()
            let value = String(pair[pair.index(after: equals)...])
            let expired = parts.dropFirst().contains { String($0).trimmingSpaces().lowercased() == "max-age=0" }
            cookies[name] = expired ? nil : value
        }
    }
}
