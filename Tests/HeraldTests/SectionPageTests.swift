import TestSupport
import Testing

@testable import Herald

/// SPEC, third wave: a section page (and its feed) exists only while the section has a published
/// article. A section of drafts or scheduled articles answers exactly as a section that does not
/// exist: 404, without its name (issue #29: `/sections/skunkworks-project` was 200 with its name).
@Suite struct SectionPageTests {
    private static let paths = ["/sections/skunkworks-project", "/sections/skunkworks-project/feed.atom"]

    /// What the unknown section's answer says, for comparing: status, type and the error's words.
    private static func shape(_ response: TestResponse) -> [String] {
        [
            String(response.status), response["Content-Type"] ?? "",
            firstMatch(#"(?s)<section class="error-page">(.*?)</section>"#, in: response.text) ?? response.text,
        ]
    }

    private static func expectLikeAnUnknownSection(
        _ app: TestApp, _ clients: [any HTTPTestClient], sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        for client in clients {
            for path in paths {
                let response = try client.get(path)
                let unknown = try client.get(path.replacing("skunkworks-project", with: "no-such-section"))
                #expect(response.status == 404, "\(path)", sourceLocation: sourceLocation)
                #expect(Self.shape(response) == Self.shape(unknown), "\(path)", sourceLocation: sourceLocation)
                #expect(!response.text.contains("Skunkworks"), "\(path)", sourceLocation: sourceLocation)
            }
        }
    }

    @Test func aSectionHoldingOnlyADraftIsNotFound() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        _ = try editor.newArticle(
            ArticleForm(title: "The secret prototype", section: "Skunkworks project", body: "Hush.", action: "save"))
        _ = try editor.newArticle(ArticleForm(title: "Elsewhere", section: "Harbour", body: "Open.", action: "publish"))
        // Nobody sees it: not a reader, not even the editor who wrote the draft.
        try Self.expectLikeAnUnknownSection(app, [app.client(), editor])
        #expect(try app.client().get("/sections/harbour").status == 200, "a published section still has its page")
    }

    @Test func aSectionHoldingOnlyAScheduledArticleAppearsWhenItIsPublished() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor()
        let form = ArticleForm(
            title: "Launch day", section: "Skunkworks project", body: "At noon.",
            publishAt: iso8601(clock.clock.now() + 3_600), action: "publish")
        let id = try editor.newArticle(form)
        #expect(try editor.deskRows().first { $0.id == id }?.state == "scheduled")
        try Self.expectLikeAnUnknownSection(app, [app.client(), editor])

        clock.advance(3_601)
        let page = try app.client().get(Self.paths[0])
        #expect(page.status == 200)
        #expect(page.text.contains("Skunkworks project"))
        let feed = try app.client().get(Self.paths[1])
        #expect(feed.status == 200)
        #expect(feed.text.contains("Launch day"))
    }
}
