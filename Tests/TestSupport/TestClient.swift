import HTTP

/// A small browser for tests: a cookie jar, form posts, optional redirect following,
/// over one keep-alive connection (reopened if the server closed it).
public final class TestClient {
    public let port: Int
    /// Cookies by name, as the server last set them (Max-Age=0 deletes).
    public private(set) var cookies: [String: String] = [:]
    /// Headers added to every request (e.g. `Sec-Fetch-Site: same-origin`).
    public var defaultHeaders: [(String, String)] = []
    private var connection: RawHTTPConnection?

    public init(port: Int) { self.port = port }

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

    public func setCookie(_ name: String, _ value: String?) {
        cookies[name] = value
    }

    public func request(
        _ method: String, _ path: String, headers: [(String, String)] = [], body: [UInt8] = []
    ) throws -> TestResponse {
        var head = "\(method) \(path) HTTP/1.1\r\n"
        if !(defaultHeaders + headers).contains(where: { $0.0.lowercased() == "host" }) {
            head += "Host: 127.0.0.1:\(port)\r\n"
        }
        for (name, value) in defaultHeaders + headers { head += "\(name): \(value)\r\n" }
        if !cookies.isEmpty {
            head +=
                "Cookie: " + cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
                + "\r\n"
        }
        if !body.isEmpty || method == "POST" { head += "Content-Length: \(body.count)\r\n" }
        head += "\r\n"
        let bytes = Array(head.utf8) + body

        let response: TestResponse
        do {
            response = try exchange(bytes, forHead: method == "HEAD")
        } catch {
            // The server may have closed an idle keep-alive connection: retry once on a new one.
            connection = nil
            response = try exchange(bytes, forHead: method == "HEAD")
        }
        if response["Connection"]?.lowercased() == "close" { connection = nil }
        for value in response.headers.values(for: "Set-Cookie") { store(setCookie: value) }
        return response
    }

    private func exchange(_ bytes: [UInt8], forHead: Bool) throws -> TestResponse {
        let connection = try self.connection ?? RawHTTPConnection(port: port)
        self.connection = connection
        try connection.send(bytes)
        return try connection.readResponse(forHead: forHead)
    }

    private func store(setCookie header: String) {
        let parts = header.split(separator: ";")
        guard let pair = parts.first, let equals = pair.firstIndex(of: "=") else { return }
        let name = String(pair[..<equals]).trimmingSpaces()
        let value = String(pair[pair.index(after: equals)...])
        let expired = parts.dropFirst().contains { String($0).trimmingSpaces().lowercased() == "max-age=0" }
        cookies[name] = expired ? nil : value
    }
}
