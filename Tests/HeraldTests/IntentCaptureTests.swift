import Foundation
import HTTP
import TestSupport
import Testing

@testable import Herald

/// What an anonymous POST may put in the intent cookie: only the fields its action declares,
/// checked by the action's own rules before anything is compressed (issue #14, item 1).
@Suite struct IntentCaptureTests {
    /// The intent the server set, read back with the test secret.
    private func capturedIntent(_ response: TestResponse) throws -> Intent {
        let header = try #require(response.headers.values(for: "Set-Cookie").first { $0.hasPrefix("herald_intent=") })
        let value = String(header.dropFirst("herald_intent=".count).prefix { $0 != ";" })
        #expect(value.utf8.count + "herald_intent=".utf8.count <= 4096)
        let codec = IntentCodec(keys: SecretKeys(current: "test-secret-0123456789abcdef"))
        return try codec.decode(value, now: Int(Date().timeIntervalSince1970)).get()
    }

    /// 20 KB of control bytes, quotes and backslashes (60 KB once percent-encoded, under the 64 KiB
    /// body limit): each becomes up to six bytes of JSON.
    private static let junk: String = {
        let alphabet = Array((1..<32).filter { $0 != 0x26 && $0 != 0x3D }.map { UInt8($0) }) + [0x22, 0x5C]
        return String(decoding: (0..<20_000).map { alphabet[$0 * 7 % alphabet.count] }, as: UTF8.self)
    }()

    @Test func aLikeKeepsNoFormFieldsAtAll() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        let token = try reader.formToken(on: "/articles/\(slug)")
        let captured = try reader.post(
            "/articles/\(slug)/like", form: [("csrf_token", token), ("junk", Self.junk), ("more", "x")])
        #expect(captured.status == 303)
        #expect(captured["Location"] == "/login")
        let intent = try capturedIntent(captured)
        #expect(intent.action == "like")
        #expect(intent.fields.isEmpty)
        _ = try app.client().register("liker")
        #expect(try reader.login("liker")["Location"] == "/articles/\(slug)#like")
        #expect(try reader.likeCount(slug) == 1)
    }

    @Test func aCommentKeepsOnlyItsNormalisedBody() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        let token = try reader.formToken(on: "/articles/\(slug)")
        let captured = try reader.post(
            "/articles/\(slug)/comments",
            form: [("csrf_token", token), ("junk", Self.junk), ("body", "  Kept\r\nas typed.  ")])
        #expect(captured.status == 303)
        let intent = try capturedIntent(captured)
        #expect(intent.fields == [["body", "Kept\nas typed."]])
    }

    /// A reply keeps the comment it answers, checked with the posting rules at capture: a parent
    /// that is not a comment on the article is answered at once (422, the text kept), nothing kept.
    @Test func aReplyKeepsItsParentAndABadParentIsAnsweredAtOnce() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = app.client()
        _ = try author.register("author")
        let posted = try author.post(
            "/articles/\(slug)/comments", form: [("csrf_token", try author.formToken(on: "/articles/\(slug)")), ("body", "First.")])
        let parent = try #require(firstMatch(#"#comment-(\d+)$"#, in: posted["Location"] ?? ""))
        let reader = app.client()
        let token = try reader.formToken(on: "/articles/\(slug)")
        let captured = try reader.post(
            "/articles/\(slug)/comments", form: [("csrf_token", token), ("body", "A reply."), ("parent", parent)])
        #expect(captured.status == 303)
        #expect(try capturedIntent(captured).fields == [["body", "A reply."], ["parent", parent]])
        let bad = app.client()
        let refused = try bad.post(
            "/articles/\(slug)/comments",
            form: [("csrf_token", try bad.formToken(on: "/articles/\(slug)")), ("body", "Kept text."), ("parent", "x")])
        #expect(refused.status == 422)
        #expect(refused.text.contains("Kept text."))
        #expect(bad.cookies["herald_intent"] == nil)
    }

    @Test func anInvalidAnonymousCommentIsAnsweredAtOnceWithItsTextAndNothingKept() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        for body in ["   \r\n  ", String(repeating: "ж", count: 2001), Self.junk] {
            let reader = app.client()
            let token = try reader.formToken(on: "/articles/\(slug)")
            let response = try reader.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", body)])
            #expect(response.status == 422)
            #expect(response.headers.values(for: "Set-Cookie").allSatisfy { !$0.hasPrefix("herald_intent=") })
            #expect(reader.cookies["herald_intent"] == nil)
            if body.hasPrefix("ж") { #expect(response.text.contains(body), "the text is kept in the form") }
        }
    }

    @Test func twoThousandCharactersOfChineseWithEmojiStillFit() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Comments/chinese-emoji.txt")
        let text = try String(contentsOf: path, encoding: .utf8)
        #expect(CommentText.length(CommentText.normalized(text)) == 2000)
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = app.client()
        let token = try reader.formToken(on: "/articles/\(slug)")
        let captured = try reader.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", text)])
        #expect(captured.status == 303)
        #expect(try capturedIntent(captured).fields == [["body", CommentText.normalized(text)]])
    }
}
