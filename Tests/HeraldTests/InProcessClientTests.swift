import HTTP
import TestSupport
import Testing

@testable import Herald

/// The in-process client must read what a socket client reads: the same requests to the same
/// app, once over the real server and once straight to `respond(to:)`, give the same status,
/// headers and body. Only what libmicrohttpd alone decides (`Date`) and what is random per
/// visitor (cookie values, the form tokens bound to them) may differ.
@Suite struct InProcessClientTests {
    /// Compared byte for byte; pages with forms carry per-visitor tokens and are compared by head.
    private static let requests: [(method: String, path: String, headers: [(String, String)], sameBody: Bool)] = [
        ("GET", "/healthz", [], true),
        ("HEAD", "/healthz", [], true),
        ("GET", "/", [], false),
        ("HEAD", "/", [], true),
        ("GET", "/", [("Accept-Encoding", "gzip")], false),
        ("HEAD", "/", [("Accept-Encoding", "gzip")], true),
        ("GET", "/login", [], false),
        ("GET", "/static/css/herald.css", [], true),
        ("GET", "/static/css/herald.css", [("Accept-Encoding", "gzip")], true),
        ("HEAD", "/static/css/herald.css", [("Accept-Encoding", "gzip")], true),
        ("GET", "/feed.atom", [], true),
        ("GET", "/no-such-page", [], true),
        ("GET", "/articles/%ZZ", [], true),
        ("GET", "/?page=abc", [], true),
        ("DELETE", "/", [], true),
        ("OPTIONS", "/login", [], true),
        ("GET", "/me/likes", [], true),
        ("POST", "/logout", [("Sec-Fetch-Site", "cross-site")], true),
        ("POST", "/login", [("Sec-Fetch-Site", "same-origin"), ("Content-Type", "text/plain")], true),
    ]

    @Test func answersAsTheServerDoes() throws {
        let app = try TestApp()
        let overSocket = app.client()
        let inProcess = InProcessClient(
            responder: app.app.responder, host: app.host, maxBodyBytes: app.configuration.maxBodyBytes)
        var requests = Self.requests
        let etag = try #require(try overSocket.get("/static/css/herald.css")["ETag"])
        requests.append(("GET", "/static/css/herald.css", [("If-None-Match", etag)], true))
        let slug = try app.firstSlug()
        requests.append(("HEAD", "/articles/\(slug)", [], true))
        requests.append(("GET", "/articles/\(slug)", [], false))
        // A shared page is first made a template at the per-response level, and made again at
        // the strong one by the next request (ARCHITECTURE.md, "Compression"): ask for each
        // compressed one twice first, so that both clients are served the same template.
        // Both clients warm up alike, so both hold their browser cookie from then on (every page
        // carries a form token now: the footer's language switcher).
        for (method, path, headers, _) in requests where headers.contains(where: { $0.0 == "Accept-Encoding" }) {
            for _ in 0..<2 {
                _ = try overSocket.request(method, path, headers: headers)
                _ = try inProcess.request(method, path, headers: headers)
            }
        }
        for (method, path, headers, sameBody) in requests {
            let wire = try overSocket.request(method, path, headers: headers)
            let direct = try inProcess.request(method, path, headers: headers)
            let label = "\(method) \(path) \(headers)"
            #expect(direct.status == wire.status, "\(label)")
            #expect(comparable(direct.headers) == comparable(wire.headers), "\(label)")
            if sameBody {
                // Every page's footer (the language switcher) carries the visitor's form token.
                #expect(withoutTokens(direct.body) == withoutTokens(wire.body), "\(label)")
            } else {
                #expect(direct.body.count == wire.body.count, "\(label): only tokens differ, never their length")
            }
            if method == "HEAD" { #expect(direct.body.isEmpty) }
        }
        #expect(overSocket.cookies.keys.sorted() == inProcess.cookies.keys.sorted())
    }

    @Test func aPooledRouteIsAnsweredOnTheCallingThread() throws {
        let app = try TestApp(server: false, demo: false)
        #expect(app.port == 0)
        let client = app.client()
        #expect(client is InProcessClient)
        let registered = try client.register("in-process")
        #expect(registered.status == 303)
        #expect(client.cookies["herald_session"] != nil)
        #expect(try client.get("/").text.contains("in-process"))
    }

    @Test func whatTheServerRefusesBeforeTheAppIsNotFaked() throws {
        let app = try TestApp(server: false, demo: false)
        let client = app.client()
        #expect(throws: TestClientError.self) {
            try client.request("POST", "/login", headers: [("Transfer-Encoding", "chunked")], body: [0x61])
        }
        #expect(throws: TestClientError.self) {
            try client.request("GET", "/", headers: [("Host", "a"), ("Host", "b")])
        }
        #expect(throws: TestClientError.self) {
            try client.request("POST", "/login", headers: [("Content-Length", "5")], body: [])
        }
        let tooLarge = [UInt8](repeating: 0x61, count: app.configuration.maxBodyBytes + 1)
        #expect(throws: TestClientError.self) { try client.request("POST", "/login", body: tooLarge) }
    }

    /// Header fields by name, in order, with what may differ between two visitors blanked:
    /// `Date` (libmicrohttpd's clock) and the values of cookies (random per visitor).
    private func comparable(_ headers: HTTPHeaders) -> [String] {
        headers.compactMap { field -> String? in
            let name = field.name.lowercased()
            if name == "date" { return nil }
            // Each response has its own id, in-process or over the wire alike.
            if name == "x-request-id" { return "x-request-id: …" }
            if name == "set-cookie" {
                let parts = field.value.split(separator: ";", maxSplits: 1)
                let cookieName = parts.first?.split(separator: "=").first ?? ""
                return "set-cookie: \(cookieName)=…;\(parts.dropFirst().first ?? "")"
            }
            return "\(name): \(field.value)"
        }.sorted()
    }
}

/// `body` with each form token's value replaced: the one thing that differs between two visitors'
/// copies of a page.
private func withoutTokens(_ body: [UInt8]) -> String {
    String(decoding: body, as: UTF8.self).replacing(#/name="csrf_token" value="[^"]*"/#, with: "name=\"csrf_token\"")
}
