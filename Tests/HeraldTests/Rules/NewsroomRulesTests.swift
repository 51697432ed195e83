import Testing

@testable import Herald

/// The newsroom's rules, asked of the service itself: who may write, and what a save does.
@Suite struct NewsroomRulesTests {
    @Test func onlyEditorsMayWriteReadDraftsOrSeeTheDesk() throws {
        let fixture = try ServiceFixture()
        let reader = try fixture.account("reader")
        let editor = try fixture.account("editor", .editor)
        var submission = ArticleSubmission()
        submission.title = "Embargoed"
        submission.body = "Not yet."

        guard case .notAllowed = try fixture.newsroom.create(submission, action: .save, by: reader) else {
            Issue.record("a reader created an article")
            return
        }
        guard case .saved(let draft, nil) = try fixture.newsroom.create(submission, action: .save, by: editor) else {
            Issue.record("an editor could not save a draft")
            return
        }
        #expect(draft.isDraft)
        guard case .notAllowed = try fixture.newsroom.update(id: draft.id, submission, action: .publish, by: reader)
        else {
            Issue.record("a reader published a draft")
            return
        }
        guard case .notAllowed = try fixture.newsroom.article(id: draft.id, by: reader) else {
            Issue.record("a reader read a draft through the newsroom")
            return
        }
        guard case .notAllowed = try fixture.newsroom.desk(page: 1, by: reader) else {
            Issue.record("a reader saw the desk")
            return
        }
        guard case .allowed(let desk) = try fixture.newsroom.desk(page: 1, by: editor) else {
            Issue.record("an editor was refused the desk")
            return
        }
        #expect(desk.articles.map(\.id) == [draft.id])
        let admin = try fixture.account("boss", .admin)
        #expect(Newsroom.mayWrite(admin), "an admin is an editor too")
        #expect(!Newsroom.mayWrite(nil))
    }

    @Test func aSaveWithAnEmptyTitleChangesNothingAndSaysWhichField() throws {
        let fixture = try ServiceFixture()
        let editor = try fixture.account("editor", .editor)
        let article = try fixture.publishedArticle(by: editor)
        var submission = ArticleSubmission(article)
        submission.title = "   "
        guard
            case .invalid(let problems) = try fixture.newsroom.update(
                id: article.id, submission, action: .save, by: editor)
        else {
            Issue.record("an empty title was saved")
            return
        }
        #expect(problems[.title] != nil)
        #expect(try fixture.app.app.articles.article(id: article.id)?.title == "Harbour reopens")
    }
}
