import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// Issue #32, item 2: the queue shows what a moderator needs to judge a report — who reported it
/// and when, the comment it answered, the author's other recent comments and earlier removals.
@Suite struct ModerationContextTests {
    @Test func theQueueNamesReportersWithTimesTheParentAndTheAuthorsHistory() throws {
        let time = TestClock()
        let app = try TestApp(server: false) { $0.clock = time.clock }
        let slug = try app.firstSlug()
        let asker = try app.reader("asker")
        let question = try asker.comment(on: slug, "Is the pier safe?\nAsking for a friend.")
        let troll = try app.reader("troll")
        let earlier = try troll.comment(on: slug, "An earlier rude remark.")
        let moderator = try app.moderator()
        #expect(try moderator.postForm("/comments/\(earlier)/hide").status == 303)
        time.advance(60)
        _ = try troll.comment(on: slug, "Another remark, still up.")
        let answer = try #require(
            commentID(in: try troll.reply(to: question, on: slug, "Nobody cares.")["Location"]))
        #expect(try app.reader("first-reporter").report(answer, on: slug, reason: "abuse").status == 303)
        time.advance(2 * 3600)
        #expect(try app.reader("second-reporter").report(answer, on: slug, reason: "spam").status == 303)

        let item = try #require(queueItems(in: try moderator.moderationPage()).first { $0.id == answer })
        // Reporters, newest first, each with the reason and when.
        let reporters = try #require(
            firstMatch(#"(?s)<p class="meta reporters" data-reporters>(.*?)</p>"#, in: item.html))
        let second = try #require(reporters.range(of: ">second-reporter</a> (spam, "))
        let first = try #require(reporters.range(of: ">first-reporter</a> (abuse, "))
        #expect(second.lowerBound < first.lowerBound)
        #expect(reporters.contains(">just now</time>)"))
        #expect(reporters.contains(">2 hours ago</time>)"))
        #expect(reporters.contains("title=\"\(DateText.dayAndTime(time.clock.now()) + " UTC")\""))
        // The comment it answered.
        #expect(
            item.html.contains(
                "In reply to asker: <a href=\"/articles/\(slug)#comment-\(question)\">“Is the pier safe? Asking for a friend.”</a>"
            ))
        // The author's other comments (the removed one marked) and how many were removed.
        let history = try #require(
            firstMatch(#"(?s)<details class="author-history" data-author-history>(.*?)</details>"#, in: item.html))
        #expect(history.contains("troll’s other recent comments · 1 of their comments removed by moderators"))
        #expect(history.contains("“Another remark, still up.”"))
        #expect(history.contains("“An earlier rude remark.”"))
        #expect(history.contains(" · removed</span>"))
        #expect(!history.contains("Nobody cares."), "not the reported comment itself")
    }

    @Test func aQueueOfManyReportsNamesTheNewestFive() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let id = try app.reader("loud").comment(on: slug, "Reported by everyone.")
        for index in 1...7 {
            #expect(try app.reader("reporter\(index)").report(id, on: slug, reason: "spam").status == 303)
        }
        let item = try #require(queueItems(in: try app.moderator().moderationPage()).first { $0.id == id })
        #expect(occurrences(of: "class=\"reporter\"", in: item.html) == ModerationStore.reportersShown)
        #expect(item.html.contains("<span class=\"more-reporters\">and 2 more</span>"))
        #expect(!item.html.contains("data-author-history"), "no other comments, nothing removed: no history")
    }

    @Test func hideAndBanAskFirstWithAReason() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let id = try app.reader("rude").comment(on: slug, "Rude.")
        #expect(try app.reader("reporter").report(id, on: slug, reason: "abuse").status == 303)
        let item = try #require(queueItems(in: try app.moderator().moderationPage()).first { $0.id == id })
        let confirms = captureGroups(
            #"(?s)<details class="confirm">\s*<summary>([^<]*)</summary>(.*?)</details>"#, in: item.html)
        #expect(confirms.map { $0[0] } == ["Hide…", "Ban rude…"])
        #expect(confirms[0][1].contains("action=\"/comments/\(id)/hide\""))
        #expect(confirms[1][1].contains("action=\"/users/rude/ban\""))
        #expect(confirms[1][1].contains("<label for=\"ban-reason-\(id)\">Reason (required)</label>"))
        #expect(confirms[1][1].contains("name=\"note\""))
        // Dismissing changes nothing irreversible: one click, as before.
        #expect(!confirms.contains { $0[1].contains("/dismiss") })
    }

    @Test func theRecordLinksToWhatWasActedOn() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let id = try app.reader("target").comment(on: slug, "Hide me.")
        let moderator = try app.moderator()
        #expect(try moderator.postForm("/comments/\(id)/hide").status == 303)
        #expect(try moderator.postForm("/users/target/ban", on: "/", ModerationTests.permanentBan).status == 303)
        let page = try moderator.moderationPage()
        #expect(page.contains("<td><a href=\"/comments/\(id)\">comment \(id)</a></td>"))
        #expect(page.contains("<td><a href=\"/users/target\">user target</a></td>"))
        // The comment's lasting address leads to its place on its article.
        let permalink = try app.client().get("/comments/\(id)")
        #expect(permalink.status == 303)
        #expect(permalink["Location"] == "/articles/\(slug)#comment-\(id)")
        #expect(try app.client().get("/comments/999999").status == 404)
        #expect(try app.client().get("/comments/abc").status == 404)
    }
}
