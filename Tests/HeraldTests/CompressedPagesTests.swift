import HTTP
import TestSupport
import Testing

@testable import Herald

/// Shared pages served from their templates (issue #31), decoded by each coding's own decoder:
/// the same bytes as the reader's uncompressed page, with their token, name and unread count.
/// (Tests/encodings decodes with Python's decoders, Tests/browser with Chromium's.)
@Suite struct CompressedPagesTests {
    static func decoded(_ response: TestResponse) -> [UInt8]? {
        switch response["Content-Encoding"] {
        case "br": BrotliCodec.decompress(response.body)
        case "zstd": ZstdCodec.decompress(response.body)
        case "gzip": Gzip.decompress(response.body)
        case nil: response.body
        default: nil
        }
    }

    /// Each coding, decoded, is the identity page of the same reader, on every page given.
    static func expectSameAsIdentity(_ client: any HTTPTestClient, _ paths: [String]) throws {
        for path in paths {
            for coding in ContentCoding.compressing {
                let encoded = try client.get(path, headers: [("Accept-Encoding", coding.rawValue)])
                let identity = try client.get(path)
                #expect(encoded["Content-Encoding"] == coding.rawValue, "\(path) \(coding)")
                // Pages vary by the interface language too (`Vary: Accept-Language, Accept-Encoding`).
                #expect(encoded["Vary"]?.hasSuffix("Accept-Encoding") == true)
                #expect(identity["Content-Encoding"] == nil)
                #expect(decoded(encoded) == identity.body, "\(path) in \(coding)")
                #expect(encoded.body.count < identity.body.count / 2, "\(path) in \(coding)")
            }
        }
    }

    @Test func anonymousReadersPagesDecodeToTheirIdentityPages() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        _ = try reader.get("/articles/\(slug)")  // the id cookie, as a returning reader has it
        try Self.expectSameAsIdentity(reader, ["/", "/articles/\(slug)", "/articles/\(slug)?from=mail", "/feed.atom"])
    }

    @Test func logInReadersPagesCarryTheirOwnNameAndTokenEachTime() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        for name in ["abc", "a-reader-with-32-characters-name"] {
            let reader = app.client()
            #expect(try reader.register(name).status == 303)
            try Self.expectSameAsIdentity(reader, ["/", "/articles/\(slug)", "/account"])
            let page = try reader.get("/", headers: [("Accept-Encoding", "br")])
            let text = String(decoding: Self.decoded(page) ?? [], as: UTF8.self)
            #expect(text.contains("Signed in as <strong>\(name)</strong>"))
        }
    }

    @Test func aFirstVisitGetsTheTokenOfItsNewCookie() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        for coding in ContentCoding.compressing {
            let browser = app.client()
            let first = try browser.get("/articles/\(slug)", headers: [("Accept-Encoding", coding.rawValue)])
            #expect(first["Set-Cookie"]?.hasPrefix("herald_csrf=") == true)
            let again = try browser.get("/articles/\(slug)")  // the same browser, its cookie sent back
            #expect(Self.decoded(first) == again.body, "\(coding)")
        }
    }

    @Test func imagesAreNeverCompressedAgainAndSmallPagesAreSentAsTheyAre() throws {
        let app = try TestApp(server: false)
        let robots = try app.client().get("/robots.txt", headers: [("Accept-Encoding", "br")])
        #expect(robots.status == 200)
        #expect(robots["Content-Encoding"] == nil, "under 1 KiB")
        #expect(robots["Vary"] == "Accept-Encoding")
        let identity = try app.client().get("/", headers: [("Accept-Encoding", "identity")])
        #expect(identity["Content-Encoding"] == nil)
        #expect(identity["Vary"] == "Accept-Language, Accept-Encoding")
    }
}
