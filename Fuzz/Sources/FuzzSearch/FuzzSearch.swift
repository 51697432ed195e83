import Foundation
import FuzzSupport
import HTTP
import Herald

/// `/search` through the whole app (routing, middleware, the SQLite store and its FTS5 index, the
/// templates) on a small database: whatever bytes the query holds, the answer is a 200, a 400 or a
/// 404, never a 5xx (SPEC "Discovery": no query ever gives a 5xx). Each input is sent as `q`
/// percent-encoded byte by byte (any text a form can send), as it is (broken escapes, raw bytes),
/// and for page 2.
private let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().path

private let app: HeraldApp = {
    let directory = root + "/.build/fuzz-search-data"
    try? FileManager.default.removeItem(atPath: directory)
    var configuration = Configuration()
    configuration.dataDirectory = directory
    configuration.rootDirectory = root
    configuration.loadDemoContent = false
    configuration.accessLog = false
    configuration.secret = "fuzz-search-secret-0123456789abcdef"
    do {
        let app = try HeraldApp(configuration: configuration, log: .silent)
        let now = Int(Date().timeIntervalSince1970)
        let texts: [(String, String, String)] = [
            ("Harbour ferries resume", "Crossings restart at dawn.", "The port said all routes reopen."),
            ("Half price", "", "Everything at 50% today; a snake_case_name; C:\\temp\\file"),
            ("Say \"cheese\"", "O'Brien (paren) x^2", "wild*card NEAR the door, e-mail foo:bar, C++ and C#"),
            ("城市简报", "北京是中国的首都", "東京は日本の首都です。ニュース"),
            ("Rocket", "🚀 launch", "👩‍👩‍👧 family 🇫🇷 <b>bold</b> &amp; more"),
        ]
        let articles = texts.enumerated().map { index, text in
            IncomingArticle(
                sourceID: "fuzz-\(index)", title: text.0, summary: text.1, body: text.2, author: "Desk",
                section: index % 2 == 0 ? "World" : "", publishedAt: now - 60 * (index + 1))
        }
        _ = try app.articles.importArticles(articles, now: now)
        return app
    } catch {
        fatalError("FuzzSearch: could not set up the app in \(directory): \(error)")
    }
}()

private func percentEncoded(_ bytes: [UInt8]) -> String {
    var out = ""
    for byte in bytes {
        if (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7A) {
            out.append(Character(Unicode.Scalar(byte)))
        } else {
            out += String(format: "%%%02X", byte)
        }
    }
    return out
}

private func expectNo5xx(_ target: String) {
    let request = Request(method: .get, target: target, headers: HTTPHeaders([("Host", "127.0.0.1:8080")]))
    let status = app.responder.respond(to: request).status.code
    if status >= 500 { fatalError("GET \(target) answered \(status)") }
}

@_cdecl("FuzzSearch_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    _ = app
    return runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        let encoded = percentEncoded(input)
        expectNo5xx("/search?q=" + encoded)
        expectNo5xx("/search?q=" + encoded + "&page=2")
        // As typed into the query string: only what can stand in a request target.
        if input.allSatisfy({ $0 > 0x20 && $0 != 0x7F && $0 != UInt8(ascii: "#") }) {
            expectNo5xx("/search?q=" + String(decoding: input, as: UTF8.self))
        }
        return 0
    }
}
