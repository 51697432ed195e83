import Testing

@testable import Herald

/// Moderation's rules, asked of the service itself: it checks the acting account, whoever calls it.
@Suite struct ModerationRulesTests {
    @Test func aReaderPassedAsAModeratorIsRefusedByTheServiceItself() throws {
        let fixture = try ServiceFixture()
        let editor = try fixture.account("editor", .editor)
        let article = try fixture.publishedArticle(by: editor)
        let troll = try fixture.account("troll")
        guard case .posted(let id, _, _) = try fixture.comments.post("Rude words.", on: article.slug, by: troll.id)
        else {
            Issue.record("could not comment")
            return
        }
        let impostor = try fixture.account("impostor")
        let moderation = fixture.moderation
        #expect(
            try moderation.setHidden(commentID: id, hidden: true, note: "", by: .moderator(impostor))
                == .notAllowed(Moderation.moderatorsOnly))
        #expect(
            try moderation.dismissReports(commentID: id, note: "", by: .moderator(impostor))
                == .notAllowed(Moderation.moderatorsOnly))
        #expect(
            try moderation.setBanned("troll", banned: true, hideComments: true, note: "", by: .moderator(impostor))
                == .notAllowed(Moderation.moderatorsOnly))
        guard case .notAllowed = try moderation.queue(page: 1, by: .moderator(impostor)) else {
            Issue.record("a reader read the queue")
            return
        }
        #expect(try fixture.comments.comment(id: id)?.isHidden == false, "nothing changed")

        let moderator = try fixture.account("mod", .moderator)
        #expect(
            try moderation.setHidden(commentID: id, hidden: true, note: "", by: .moderator(moderator))
                == .changed(articleSlug: article.slug))
        #expect(
            try moderation.setHidden(commentID: id, hidden: false, note: "", by: .commandLine)
                == .changed(articleSlug: article.slug))
    }

    @Test func notesLongerThanTheLimitAreRefusedEverywhere() throws {
        let fixture = try ServiceFixture()
        let editor = try fixture.account("editor", .editor)
        let article = try fixture.publishedArticle(by: editor)
        let author = try fixture.account("author")
        let reporter = try fixture.account("reporter")
        guard case .posted(let id, _, _) = try fixture.comments.post("Spam spam.", on: article.slug, by: author.id)
        else {
            Issue.record("could not comment")
            return
        }
        _ = try fixture.moderation.report(commentID: id, reason: "spam", by: reporter)
        let moderator = try fixture.account("mod", .moderator)
        let long = String(repeating: "n", count: Moderation.maximumNoteCharacters + 1)
        #expect(
            try fixture.moderation.setHidden(commentID: id, hidden: true, note: long, by: .moderator(moderator))
                == .noteTooLong)
        #expect(
            try fixture.moderation.dismissReports(commentID: id, note: long, by: .moderator(moderator)) == .noteTooLong,
            "dismissing no longer empties a long note silently")
        #expect(
            try fixture.moderation.dismissReports(commentID: id, note: "ok", by: .moderator(moderator)) == .dismissed)
        #expect(try fixture.moderation.dismissReports(commentID: id, note: "", by: .moderator(moderator)) == .noneOpen)
    }
}
