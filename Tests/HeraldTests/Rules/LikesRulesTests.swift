import Testing

@testable import Herald

/// Likes, asked of the service: idempotent, counted once, and only on published articles.
@Suite struct LikesRulesTests {
    @Test func aLikeCountsOnceAndAnUnlikeTakesItBack() throws {
        let fixture = try ServiceFixture()
        let editor = try fixture.account("editor", .editor)
        let article = try fixture.publishedArticle(by: editor)
        let reader = try fixture.account("reader")
        guard case .liked(let first) = try fixture.likes.change(article.slug, liked: true, by: reader.id),
            case .liked(let again) = try fixture.likes.change(article.slug, liked: true, by: reader.id)
        else {
            Issue.record("a like was refused")
            return
        }
        #expect(first.count == 1 && again.count == 1, "liking twice counts once")
        guard case .unliked(let after) = try fixture.likes.change(article.slug, liked: false, by: reader.id) else {
            Issue.record("an unlike was refused")
            return
        }
        #expect(after.count == 0)
        #expect(try fixture.likes.change("no-such-article", liked: true, by: reader.id) == .noSuchArticle)
    }

    @Test func aDraftCannotBeLiked() throws {
        let fixture = try ServiceFixture()
        let editor = try fixture.account("editor", .editor)
        var submission = ArticleSubmission()
        submission.title = "Draft only"
        submission.body = "Not yet."
        guard case .saved(let draft, _) = try fixture.newsroom.create(submission, action: .save, by: editor) else {
            Issue.record("could not save a draft")
            return
        }
        let reader = try fixture.account("reader")
        #expect(try fixture.likes.change(draft.slug, liked: true, by: reader.id) == .noSuchArticle)
    }
}
