import Testing

@testable import Herald

/// The rules for comments, asked of the service and its predicates: the edit window, authorship.
@Suite struct CommentsRulesTests {
    @Test func mayEditIsTheAuthorWithinFifteenMinutesWhileNotHidden() throws {
        let fixture = try ServiceFixture()
        let editor = try fixture.account("editor", .editor)
        let article = try fixture.publishedArticle(by: editor)
        let author = try fixture.account("author")
        let other = try fixture.account("other")
        guard case .posted(let id, _, _) = try fixture.comments.post("First words.", on: article.slug, by: author.id)
        else {
            Issue.record("could not comment")
            return
        }
        let comment = try #require(try fixture.comments.comment(id: id))
        let now = fixture.clock.clock.now()
        #expect(Comments.mayEdit(comment, by: author, now: now))
        #expect(!Comments.mayEdit(comment, by: other, now: now))
        #expect(!Comments.mayEdit(comment, by: nil, now: now))
        #expect(Comments.mayEdit(comment, by: author, now: now + Comments.editWindowSeconds))
        #expect(!Comments.mayEdit(comment, by: author, now: now + Comments.editWindowSeconds + 1))
        var hidden = comment
        hidden.isHidden = true
        #expect(!Comments.mayEdit(hidden, by: author, now: now))

        // The service's own answer agrees with the predicate the page asks.
        #expect(try fixture.comments.edit(id, to: "Changed.", by: other.id) == .notTheAuthor)
        fixture.clock.advance(Comments.editWindowSeconds + 1)
        guard case .closed = try fixture.comments.edit(id, to: "Too late.", by: author.id) else {
            Issue.record("an edit after the window was accepted")
            return
        }
    }

    @Test func onlyItsAuthorDeletesAComment() throws {
        let fixture = try ServiceFixture()
        let editor = try fixture.account("editor", .editor)
        let article = try fixture.publishedArticle(by: editor)
        let author = try fixture.account("author")
        let other = try fixture.account("other")
        guard case .posted(let id, _, _) = try fixture.comments.post("Mine.", on: article.slug, by: author.id) else {
            Issue.record("could not comment")
            return
        }
        #expect(try fixture.comments.delete(id, by: other.id) == .notTheAuthor)
        #expect(try fixture.comments.delete(id, by: author.id) == .deleted(articleSlug: article.slug))
        #expect(try fixture.comments.delete(id, by: author.id) == .noSuchComment)
    }
}
