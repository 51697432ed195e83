import Testing

@testable import HTTP

@Suite struct DecodingTests {
    @Test func percentDecodingOfPaths() throws {
        let request = Request(method: .get, target: "/articles/caf%C3%A9/a%2Fb?x=1")
        #expect(request.rejection == nil)
        #expect(request.path == "/articles/café/a/b")
        #expect(request.pathSegments == ["articles", "café", "a/b"])
        #expect(request.query["x"] == "1")
    }

    @Test(arguments: ["/bad%zz", "/bad%", "/bad%4", "/nul%00byte", "/latin1%E9", "no-slash", "/ok?x=%ZZ"])
    func malformedTargetsAreRejected(target: String) {
        let request = Request(method: .get, target: target)
        #expect(request.rejection?.status == .badRequest)
    }

    @Test func queryKeepsOrderRepeatsAndPlus() throws {
        let form = try URLEncodedForm(parsing: "a=1&b=two+words&a=2&empty=&flag&c=%E2%9C%93")
        #expect(form["a"] == "1")
        #expect(form.values(for: "a") == ["1", "2"])
        #expect(form["b"] == "two words")
        #expect(form["empty"] == "")
        #expect(form["flag"] == "")
        #expect(form["c"] == "✓")
        #expect(form["missing"] == nil)
    }

    @Test func formRoundTrip() throws {
        let original = URLEncodedForm([("body", "Hello & <world> = 100% ✓\nline"), ("x", "a+b")])
        let decoded = try URLEncodedForm(parsing: original.encoded)
        #expect(decoded["body"] == "Hello & <world> = 100% ✓\nline")
        #expect(decoded["x"] == "a+b")
    }

    @Test(arguments: ["a=%", "a=%G1", "a=%C3%28", "a=%00", "%FF=1"])
    func invalidFormsAre400(body: String) {
        #expect(throws: HTTPError.self) { try URLEncodedForm(parsing: body) }
        do { _ = try URLEncodedForm(parsing: body) } catch { #expect(error.status == .badRequest) }
    }

    @Test func formRequiresURLEncodedContentType() throws {
        let json = Request(
            method: .post, target: "/x", headers: HTTPHeaders([("Content-Type", "application/json")]),
            body: Array("{}".utf8))
        #expect(throws: HTTPError.self) { try json.form() }
        let form = Request(
            method: .post, target: "/x",
            headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded; charset=UTF-8")]),
            body: Array("a=1".utf8))
        #expect(try form.form()["a"] == "1")
    }

    @Test func cookieParsing() {
        let cookies = RequestCookies(header: "a=1; b=\"quoted\";c=x=y;  ;noequals; d = spaced ; a=second")
        #expect(cookies["a"] == "1")
        #expect(cookies["b"] == "quoted")
        #expect(cookies["c"] == "x=y")
        #expect(cookies["d"] == "spaced")
        #expect(cookies["noequals"] == nil)
    }

    @Test func cookieFromRequestHeaders() {
        let request = Request(method: .get, target: "/", headers: HTTPHeaders([("cookie", "herald_session=abc")]))
        #expect(request.cookies["herald_session"] == "abc")
    }

    @Test func setCookieAttributes() {
        let cookie = SetCookie(
            name: "herald_intent", value: "v1.abc", maxAge: 900, path: "/", httpOnly: true, sameSite: .lax, secure: true
        )
        #expect(cookie.headerValue == "herald_intent=v1.abc; Max-Age=900; Path=/; HttpOnly; SameSite=Lax; Secure")
        #expect(
            SetCookie(name: "x", value: "v", path: "/", httpOnly: true, sameSite: .lax, secure: false).expired
                .headerValue == "x=; Max-Age=0; Path=/; HttpOnly; SameSite=Lax")
    }

    @Test func headersAreCaseInsensitive() {
        var headers = HTTPHeaders([("Content-Type", "text/html")])
        #expect(headers["content-type"] == "text/html")
        #expect(headers["CONTENT-TYPE"] == "text/html")
        #expect(headers["Content-Typ"] == nil)
        headers.set("content-TYPE", "text/plain")
        #expect(headers.values(for: "Content-Type") == ["text/plain"])
    }

    @Test(
        arguments: [
            ("/", "/"), ("/articles/x?page=2", "/articles/x?page=2"), ("//evil.example", nil), ("/\\evil.example", nil),
            ("https://evil.example", nil), ("javascript:alert(1)", nil), ("", nil), ("/a\nb", nil), ("relative", nil),
        ] as [(String, String?)])
    func localPaths(candidate: String, expected: String?) {
        #expect(LocalPath.validated(candidate) == expected)
    }

    @Test func acceptEncoding() {
        #expect(Compression<Void>.acceptsGzip("gzip, deflate, br"))
        #expect(Compression<Void>.acceptsGzip("br;q=1.0, GZIP;q=0.5"))
        #expect(Compression<Void>.acceptsGzip("*"))
        #expect(!Compression<Void>.acceptsGzip("gzip;q=0"))
        #expect(!Compression<Void>.acceptsGzip("deflate"))
        #expect(!Compression<Void>.acceptsGzip(nil))
    }

    @Test func compressibleMediaTypes() {
        #expect(Compression<Void>.isCompressible("text/html; charset=utf-8"))
        #expect(Compression<Void>.isCompressible("text/css"))
        #expect(Compression<Void>.isCompressible("application/atom+xml; charset=utf-8"))
        #expect(Compression<Void>.isCompressible("image/svg+xml"))
        #expect(!Compression<Void>.isCompressible("image/png"))
        #expect(!Compression<Void>.isCompressible("application/json-seq"))
        #expect(!Compression<Void>.isCompressible("application/jso"))
        #expect(!Compression<Void>.isCompressible("texts/html"))
        #expect(!Compression<Void>.isCompressible(""))
    }

    @Test func gzipRoundTrip() throws {
        let text = Array(String(repeating: "Herald news ✓ ", count: 500).utf8)
        let gzip = Gzip()
        for _ in 0..<3 {  // reused streams must give the same result every time
            let compressed = try #require(gzip.compress(text))
            #expect(compressed.count < text.count / 5)
            #expect(Gzip.decompress(compressed) == text)
        }
    }
}
