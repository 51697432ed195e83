import Foundation
import HTTP
import TestSupport
import Testing

@testable import Herald

#if canImport(Glibc)
    import Glibc
#endif

/// Uploads strangers cannot hog (issue #29): the memory for bodies past 64 KiB is reserved only
/// for a browser whose session is an editor's, live or ended within the last day, and each client
/// address holds at most a quarter of it. Over real sockets, against the whole app.
@Suite struct LargeBodyTests {
    /// What the newsroom's routes accept: the article form with a 5 MB image fits in it.
    static let announced = EditorController.maximumBodyBytes
    /// A 5 MiB PNG: the largest lead image an editor may upload.
    static let fiveMegabyteImage = PNGFile.rgb(width: 1000, height: 1600, totalBytes: 5 << 20)

    /// A connection that sends the head of a 6 MiB article form and `bodyBytes` of its body, no more.
    private static func holdUpload(
        port: Int, cookie: String?, bodyBytes: Int = 0, from source: String? = nil, path: String = "/editor/articles"
    ) throws -> RawHTTPConnection {
        let connection = try RawHTTPConnection(port: port, from: source)
        var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
        head += "Content-Type: multipart/form-data; boundary=b\r\n"
        if let cookie { head += "Cookie: \(cookie)\r\n" }
        head += "Content-Length: \(announced)\r\n\r\n"
        try connection.send(Array(head.utf8) + [UInt8](repeating: 0x61, count: bodyBytes))
        return connection
    }

    /// The editor's new-article form with the 5 MiB image, sent over a socket as a browser would;
    /// the status the server gave.
    private static func uploadImage(
        _ app: TestApp, as editor: any HTTPTestClient, token: String? = nil, cookie: String? = nil
    ) throws -> Int {
        let token = try token ?? editor.formToken(on: "/editor/articles/new")
        let body = ArticleForm(title: "A big picture", body: "Taken at dawn.", imageAlt: "The harbour")
            .multipart(csrfToken: token, image: ("harbour.png", "image/png", fiveMegabyteImage))
        #expect(body.finished.count > 5 << 20)
        return try postOverSocket(
            port: app.port, path: "/editor/articles",
            headers: [("Cookie", cookie ?? cookieHeader(editor)), ("Content-Type", body.contentType)],
            body: body.finished)
    }

    @Test func aStrangerAnnouncingSixMegabytesIsRefusedBeforeTheBodyIsRead() throws {
        let app = try TestApp(demo: false)
        let reader = try app.reader("onlyreads")
        let editor = try app.editor("deskchief")
        _ = try editor.newArticle(ArticleForm(title: "Existing"))
        let strangers: [(String, String?)] = [
            ("no cookie", nil),
            ("a made-up session", "herald_session=" + String(repeating: "A", count: 43)),
            ("a made-up __Host- session", "__Host-herald_session=" + String(repeating: "B", count: 43)),
            ("a reader's session", cookieHeader(reader)),
        ]
        for (who, cookie) in strangers {
            for path in ["/editor/articles", "/editor/articles/1"] {
                let connection = try Self.holdUpload(port: app.port, cookie: cookie, path: path)
                let response = try connection.readResponse()
                #expect(response.status == 413, "\(who), \(path)")
                #expect(response.text.contains("only from a logged-in browser"), "\(who)")
                #expect(connection.isClosedByServer(), "\(who): closed, the body unread")
            }
        }
    }

    @Test func anEditorsUploadIsAcceptedWhileStrangersHoldConnections() throws {
        let app = try TestApp(demo: false)
        let editor = try app.editor("photodesk")
        // Eleven strangers announce 6 MiB each (66 MiB, more than the whole 64 MiB budget) and
        // send nothing more.
        let strangers = try (0..<11).map { _ in try Self.holdUpload(port: app.port, cookie: nil) }
        usleep(300_000)
        let status = try Self.uploadImage(app, as: editor)
        #expect(status == 303, "the editor's 5 MiB upload")
        #expect(try editor.deskRows().count == 1)
        for stranger in strangers {
            #expect(try stranger.readResponse().status == 413)
        }
    }

    @Test func aSessionThatEndedWithinADayMayStillUploadThenNotAfter() throws {
        let clock = TestClock()
        let app = try TestApp(demo: false) { $0.clock = clock.clock }
        let editor = try app.editor("latenight")
        let token = try editor.formToken(on: "/editor/articles/new")
        // An hour past the 14-day idle limit: the session no longer logs anyone in, but it was the
        // editor's within the day, so the save is taken (and parked for after the login).
        clock.advance(14 * 86_400 + 3_600)
        let cookie = cookieHeader(editor)
        #expect(try Self.uploadImage(app, as: editor, token: token, cookie: cookie) == 303)
        // A day later it is nobody's: refused before the body is read.
        clock.advance(86_400)
        let connection = try Self.holdUpload(port: app.port, cookie: cookie)
        #expect(try connection.readResponse().status == 413)
    }

    @Test func oneAddressHoldsAtMostAQuarterOfTheBudget() throws {
        let app = try TestApp(demo: false)
        let editor = try app.editor("busyhands")
        let cookie = cookieHeader(editor)
        // From 127.0.0.1, two 6 MiB uploads in flight (12 of its 16 MiB share)…
        var held = try (0..<2).map { _ in try Self.holdUpload(port: app.port, cookie: cookie, bodyBytes: 1000) }
        usleep(300_000)
        // …leave no room for a third from the same address, though 52 of the 64 MiB are free.
        let third = try Self.holdUpload(port: app.port, cookie: cookie)
        let refused = try third.readResponse()
        #expect(refused.status == 503)
        #expect(refused.text.contains("as many large uploads as one client may at once"))
        #expect(refused["Retry-After"] != nil)
        // The same editor from another address has a share of its own.
        let elsewhere = try Self.holdUpload(port: app.port, cookie: cookie, bodyBytes: 1000, from: "127.0.0.2")
        usleep(300_000)
        #expect(elsewhere.receiveUntilClosed(within: 0.3).bytes.isEmpty, "taken: the server waits for its body")
        // Hung up: their reservations come back.
        held.removeAll()
        _ = elsewhere
        usleep(300_000)
        #expect(try Self.uploadImage(app, as: editor) == 303)
    }
}
