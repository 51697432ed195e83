import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// SPEC "Moderation" (issue #18), end to end through the pages and forms a reader and a moderator
/// use, and the `herald users ban|unban` / `herald comments hide|restore` commands. SPEC "Resumable
/// everywhere" for the report and every moderator POST; "Roles and the command line" for who may.
@Suite struct ModerationTests {
    static let reasons = ["spam", "abuse", "off-topic", "other"]
    /// A ban form's required fields: its reason and its length.
    static let permanentBan = [("note", "for the test"), ("duration", "permanent")]

    // MARK: Readers report

    @Test func everyCommentButTheReadersOwnHasAReportFormWithFourReasons() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let theirs = try author.comment(on: slug, "Someone else's words.")
        let reader = try app.reader("reader")
        let mine = try reader.comment(on: slug, "My own words.")

        let page = try reader.get("/articles/\(slug)").text
        let other = try #require(commentElement(theirs, in: page))
        #expect(other.contains("<details class=\"report\">"))
        #expect(other.contains("<summary>Report</summary>"))
        #expect(other.contains("method=\"post\" action=\"/comments/\(theirs)/report\""))
        #expect(matches(of: #"<input type="radio" name="reason" value="([^"]+)""#, in: other) == Self.reasons)
        #expect(hiddenField("csrf_token", in: other) != nil, "the token is inside the form")
        let own = try #require(commentElement(mine, in: page))
        #expect(!own.contains("/report\""), "no report form on the reader's own comment")
        #expect(own.contains("action=\"/comments/\(mine)/delete\""))
        #expect(!page.contains("/hide\""), "a reader sees no moderator's forms")

        // Anonymous readers see a report form on every comment (twice: the second copy is cached).
        for _ in 0..<2 {
            let anonymous = try app.client().get("/articles/\(slug)").text
            for id in [theirs, mine] {
                #expect(commentElement(id, in: anonymous)?.contains("action=\"/comments/\(id)/report\"") == true)
            }
        }
    }

    @Test func aReportCountsOncePerReaderAndCommentAndSaysSo() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let id = try app.reader("author").comment(on: slug, "Buy cheap watches here.")
        let first = try app.reader("first")
        let reported = try first.report(id, on: slug, reason: "spam")
        #expect(reported.status == 303)
        #expect(reported["Location"] == "/articles/\(slug)#comment-\(id)")
        #expect(flashText(in: try first.follow(reported).text)?.contains("the comment is reported") == true)

        let again = try first.report(id, on: slug, reason: "abuse")
        #expect(again.status == 303)
        #expect(again["Location"] == "/articles/\(slug)#comment-\(id)")
        #expect(
            flashText(in: try first.follow(again).text)
                == "You had already reported this comment; it is counted once.")

        let second = try app.reader("second")
        #expect(try second.report(id, on: slug, reason: "abuse").status == 303)

        let queue = queueItems(in: try app.moderator().moderationPage())
        #expect(queue.map(\.id) == [id])
        #expect(queue.first?.count == 2, "counted once per reader")
        #expect(queue.first?.reasons == ["spam": 1, "abuse": 1], "the second report by `first` changed nothing")
    }

    @Test func reportingOnesOwnCommentOrWithoutAKnownReasonIs422AndAnUnknownOrHiddenCommentIs404() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let id = try author.comment(on: slug, "Mine, and not to be reported by me.")
        let hidden = try author.comment(on: slug, "Soon hidden.")
        let moderator = try app.moderator()
        #expect(try moderator.postForm("/comments/\(hidden)/hide").status == 303)

        let own = try author.postForm("/comments/\(id)/report", [("reason", "spam")])
        #expect(own.status == 422)
        #expect(own.text.contains("You cannot report your own comment."))

        let reader = try app.reader("reader")
        for reason in ["rude", "", "SPAM", "off topic"] {
            let refused = try reader.postForm("/comments/\(id)/report", [("reason", reason)])
            #expect(refused.status == 422, "reason “\(reason)”")
            #expect(refused.text.contains("Choose why you report it"), "reason “\(reason)”")
        }
        #expect(try reader.postForm("/comments/\(id)/report").status == 422, "no reason at all")

        for path in ["/comments/999999/report", "/comments/\(hidden)/report", "/comments/abc/report"] {
            let missing = try reader.postForm(path, [("reason", "spam")])
            #expect(missing.status == 404, "\(path)")
        }
        #expect(try moderator.moderationPage().contains("No open reports."), "nothing was counted")
    }

    @Test func anAnonymousReportIsCountedOnceAfterRegistration() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let id = try app.reader("author").comment(on: slug, "A comment someone will report.")

        let visitor = app.client()
        let captured = try visitor.report(id, on: slug, reason: "abuse")
        #expect(captured.status == 303)
        #expect(captured["Location"] == "/login")
        let copied = try #require(visitor.cookies["herald_intent"])
        #expect(try visitor.get("/login").text.contains("Log in to report a comment"))
        #expect(try visitor.get("/register").text.contains("Log in to report a comment"))

        let registered = try visitor.register("newcomer")
        #expect(registered.status == 303)
        #expect(registered["Location"] == "/articles/\(slug)#comment-\(id)")
        #expect(flashText(in: try visitor.follow(registered).text)?.contains("the comment is reported") == true)

        let moderator = try app.moderator()
        var queue = queueItems(in: try moderator.moderationPage())
        #expect(queue.map(\.id) == [id])
        #expect(queue.first?.count == 1)
        #expect(queue.first?.reasons == ["abuse": 1], "captured with its reason")

        // The same cookie replayed at another reader's login performs nothing.
        _ = try app.reader("bystander").logout()
        let replayer = app.client()
        replayer.setCookie("herald_intent", copied)
        #expect(try replayer.login("bystander")["Location"] == "/")
        queue = queueItems(in: try moderator.moderationPage())
        #expect(queue.first?.count == 1, "performed once")

        // An anonymous report of an unknown comment is 404 and nothing is kept.
        let stray = app.client()
        let unknown = try stray.postForm("/comments/999999/report", on: "/login", [("reason", "spam")])
        #expect(unknown.status == 404)
        #expect(stray.cookies["herald_intent"] == nil)
    }

    @Test func anAnonymousReportIsPerformedAfterLoginButNotForTheCommentsOwnAuthor() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let id = try author.comment(on: slug, "Reported by someone who logs in later.")
        _ = try author.logout()
        _ = try app.reader("later").logout()

        let visitor = app.client()
        #expect(try visitor.report(id, on: slug, reason: "off-topic")["Location"] == "/login")
        let login = try visitor.login("later")
        #expect(login["Location"] == "/articles/\(slug)#comment-\(id)")

        // Captured, then the comment's author logs in: not counted, and told why.
        let own = app.client()
        #expect(try own.report(id, on: slug, reason: "spam")["Location"] == "/login")
        let refused = try own.login("author")
        #expect(refused.status == 422, "answered as the live report would be")
        #expect(refused.text.contains("You cannot report your own comment"))
        #expect(try own.get("/account").status == 200, "the login stands")

        let queue = queueItems(in: try app.moderator().moderationPage())
        #expect(queue.map(\.id) == [id])
        #expect(queue.first?.count == 1)
        #expect(queue.first?.reasons == ["off-topic": 1])
    }

    // MARK: The moderation page

    @Test func theModerationPageIsForModeratorsOnly() throws {
        let app = try TestApp(server: false, demo: false)
        for path in ["/moderation", "/moderation?page=2"] {
            let anonymous = try app.client().get(path)
            #expect(anonymous.status == 303, "\(path)")
            #expect(anonymous["Location"] == "/login?next=" + PercentEncoding.encode(path), "\(path)")
        }
        let reader = try app.reader("reader")
        let refused = try reader.get("/moderation")
        #expect(refused.status == 403)
        #expect(!refused.text.contains("Recent actions"))
        #expect(try app.editor("editor").get("/moderation").status == 403, "editors are not moderators")

        let moderator = try app.moderator()
        let page = try moderator.get("/moderation")
        #expect(page.status == 200)
        #expect(page.text.contains("<h2>Open reports</h2>"))
        #expect(page.text.contains("No open reports."))
        #expect(page.text.contains("<h2>Recent actions</h2>"))
        #expect(try app.admin().get("/moderation").status == 200, "admins moderate too")

        // Granted while logged in: counts on the reader's next request.
        _ = try app.app.accounts.change(.moderator, of: "reader", granted: true)
        #expect(try reader.get("/moderation").status == 200)
        _ = try moderator.logout()
        let back = try moderator.login("moderator", next: "/moderation")
        #expect(back["Location"] == "/moderation")
    }

    @Test func theQueueGroupsReportsByCommentMostReportedFirstWithReasonsTextAuthorArticleAndForms() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let other = try app.secondSlug()
        let title = try #require(try app.app.articles.article(slug: other)?.title)
        let first = try app.reader("first-author")
        let once = try first.comment(on: slug, "Reported once.")
        let thrice = try first.comment(on: slug, "Reported three times.")
        let never = try first.comment(on: slug, "Never reported.")
        let twice = try app.reader("second-author").comment(on: other, "Reported twice.\n\nIn two paragraphs.")
        let r1 = try app.reader("reader1")
        let r2 = try app.reader("reader2")
        let r3 = try app.reader("reader3")
        for (client, id, onSlug, reason) in [
            (r1, thrice, slug, "spam"), (r2, thrice, slug, "spam"), (r3, thrice, slug, "abuse"),
            (r1, twice, other, "off-topic"), (r2, twice, other, "other"), (r3, once, slug, "other"),
        ] {
            #expect(try client.report(id, on: onSlug, reason: reason).status == 303)
        }

        let page = try app.moderator().moderationPage()
        let queue = queueItems(in: page)
        #expect(queue.map(\.id) == [thrice, twice, once], "most reported first")
        #expect(queue.map(\.count) == [3, 2, 1])
        #expect(!queue.map(\.id).contains(never))
        #expect(queue.first?.reasons == ["spam": 2, "abuse": 1])
        #expect(queue.dropFirst().first?.reasons == ["off-topic": 1, "other": 1])
        #expect(queue.last?.reasons == ["other": 1])

        let item = try #require(queue.dropFirst().first)
        #expect(item.html.contains("<p>Reported twice.</p><p>In two paragraphs.</p>"), "its text")
        #expect(item.html.contains("<a class=\"author\" href=\"/users/second-author\">second-author</a>"))
        #expect(item.html.contains("<a href=\"/articles/\(other)#comment-\(twice)\">\(escapeHTML(title))</a>"))
        #expect(item.html.contains("action=\"/comments/\(twice)/hide\""))
        #expect(item.html.contains("action=\"/comments/\(twice)/dismiss\""))
        #expect(item.html.contains("action=\"/users/second-author/ban\""))
        #expect(item.html.contains("name=\"hide_comments\" value=\"1\"> also hide their comments"))
        #expect(item.html.contains("name=\"note\""))
        #expect(occurrences(of: "name=\"csrf_token\"", in: item.html) == 3, "each form carries its token")
    }

    /// The queue's order comes from each comment's stored count of open reports: it follows every
    /// way a report opens or closes — reporting (once per reader), dismissing, a reporter's account
    /// deleted, hiding, a ban that hides the author's comments.
    @Test func theQueuesCountsFollowEveryReportOpenedOrClosed() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let a = try author.comment(on: slug, "Reported by three.")
        let b = try author.comment(on: slug, "Reported by two.")
        let c = try author.comment(on: slug, "Reported by one.")
        let r1 = try app.reader("reader1")
        let r2 = try app.reader("reader2")
        let r3 = try app.reader("reader3")
        for (client, id) in [(r1, a), (r2, a), (r3, a), (r1, b), (r2, b), (r1, c), (r1, a)] {
            #expect(try client.report(id, on: slug, reason: "spam").status == 303)
        }
        let moderator = try app.moderator()
        func queue() throws -> [[Int]] { try queueItems(in: moderator.moderationPage()).map { [$0.id, $0.count] } }
        #expect(try queue() == [[a, 3], [b, 2], [c, 1]], "reporting again counts once")
        #expect(try app.openReportCountMismatches() == 0)

        #expect(try moderator.postForm("/comments/\(b)/dismiss").status == 303)
        #expect(try queue() == [[a, 3], [c, 1]])
        #expect(try app.openReportCountMismatches() == 0)

        #expect(try r2.postForm("/account/delete", on: "/account", [("password", "a-long-pass-phrase")]).status == 303)
        #expect(try queue() == [[a, 2], [c, 1]], "a deleted reporter's report goes with the account")
        #expect(try app.openReportCountMismatches() == 0)

        #expect(try moderator.postForm("/comments/\(a)/hide").status == 303)
        #expect(try queue() == [[c, 1]])
        #expect(try moderator.postForm("/comments/\(a)/restore").status == 303)
        #expect(try queue() == [[c, 1]], "restoring does not reopen the reports hiding closed")
        #expect(try app.openReportCountMismatches() == 0)

        #expect(try moderator.postForm("/users/author/ban", [("hide_comments", "1")] + Self.permanentBan).status == 303)
        #expect(try queue().isEmpty)
        #expect(try moderator.moderationPage().contains("No open reports."))
        #expect(try app.openReportCountMismatches() == 0)
    }

    @Test func theQueueIsPaginatedTwentyToAPage() throws {
        let app = try TestApp(server: false) { $0.commentsPerMinute = 100 }
        let slug = try app.firstSlug()
        let author = try app.reader("chatty")
        var ids: [Int] = []
        for index in 1...21 { ids.append(try author.comment(on: slug, "Comment number \(index).")) }
        let reporter = try app.reader("reporter")
        for id in ids { #expect(try reporter.report(id, on: slug, reason: "spam").status == 303) }
        #expect(try app.reader("reporter2").report(ids[20], on: slug, reason: "other").status == 303)

        let moderator = try app.moderator()
        let first = try moderator.moderationPage()
        let firstItems = queueItems(in: first)
        #expect(firstItems.count == 20)
        #expect(firstItems.first?.id == ids[20], "the most reported leads")
        #expect(firstItems.first?.count == 2)
        #expect(first.contains("href=\"/moderation?page=2\" rel=\"next\""))
        let second = try moderator.moderationPage(2)
        let secondItems = queueItems(in: second)
        #expect(secondItems.count == 1)
        #expect(second.contains("href=\"/moderation\" rel=\"prev\""))
        #expect(!second.contains("rel=\"next\""))
        #expect(Set(firstItems.map(\.id) + secondItems.map(\.id)) == Set(ids), "every reported comment, once")
        #expect(firstItems.count + secondItems.count == 21)
        #expect(try moderator.get("/moderation?page=3").status == 404)
        for bad in ["0", "-1", "x"] {
            #expect(try moderator.get("/moderation?page=\(bad)").status == 400, "page=\(bad)")
        }
    }

    @Test func theRecordShowsTheLastHundredActionsNewestFirst() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let id = try app.reader("author").comment(on: slug, "Hidden and restored many times.")
        let moderator = try app.moderator()
        for index in 1...101 {
            let verb = index % 2 == 1 ? "hide" : "restore"
            let response = try moderator.postForm("/comments/\(id)/\(verb)", [("note", "n\(index)")])
            #expect(response.status == 303, "\(verb) \(index)")
        }
        let rows = actionRows(in: try moderator.moderationPage())
        #expect(rows.count == 100)
        #expect(
            rows.first == ActionRow(action: "hide", who: "moderator", what: "hide", on: "comment \(id)", note: "n101"))
        #expect(rows.last?.note == "n2")
        #expect(rows.filter { $0.action == "hide" }.count == 50)
        #expect(rows.filter { $0.action == "restore" }.count == 50)
    }

    // MARK: Hide and restore

    @Test func aHiddenCommentKeepsItsPlaceLeavesEveryReadersPageAndTheCountsAndComesBackWhenRestored() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("writer")
        let kept = try author.comment(on: slug, "Visible words.")
        let id = try author.comment(on: slug, "Words to hide.")
        let other = try app.reader("other")
        #expect(try other.report(id, on: slug, reason: "abuse").status == 303)
        let moderator = try app.moderator()
        let anonymous = app.client()
        for _ in 0..<2 {
            #expect(frontCommentCount(slug, in: try anonymous.get("/").text) == 2)
            #expect(try anonymous.get("/articles/\(slug)").text.contains("Words to hide."))
            #expect(try anonymous.get("/users/writer").text.contains("Words to hide."))
        }

        let before = try moderator.get("/articles/\(slug)").text
        let form = try #require(commentElement(id, in: before))
        #expect(form.contains("action=\"/comments/\(id)/hide\""))
        let token = try #require(hiddenField("csrf_token", in: form))
        let hidden = try moderator.post(
            "/comments/\(id)/hide", form: [("csrf_token", token), ("note", "Personal attack")])
        #expect(hidden.status == 303)
        #expect(hidden["Location"] == "/articles/\(slug)#comment-\(id)", "303 back to the comment")
        #expect(flashText(in: try moderator.follow(hidden).text) == "The comment is hidden from readers.")

        // Readers — anonymous, logged in, and its own author — see its place, not its text.
        for (who, client) in [("anonymous", anonymous), ("a reader", other), ("its author", author)] {
            let page = try client.get("/articles/\(slug)").text
            let element = try #require(commentElement(id, in: page), "\(who)")
            #expect(element.contains("data-hidden"), "\(who)")
            #expect(element.contains("Removed by a moderator."), "\(who)")
            #expect(!page.contains("Words to hide."), "\(who)")
            #expect(!element.contains("/report\""), "\(who): a hidden comment cannot be reported")
            #expect(page.contains("Visible words."), "\(who)")
            #expect(!(commentElement(kept, in: page)?.contains("data-hidden") ?? true), "\(who)")
        }
        #expect(!(try other.get("/users/writer").text.contains("Words to hide.")), "the profile, to a reader")
        #expect(!(try anonymous.get("/users/writer").text.contains("Words to hide.")))
        #expect(try anonymous.get("/users/writer").text.contains("Visible words."))
        #expect(!(try anonymous.get("/feed.atom").text.contains("Words to hide.")))

        // The moderator sees the text, marked, with a Restore form.
        let moderated = try moderator.get("/articles/\(slug)").text
        let marked = try #require(commentElement(id, in: moderated))
        #expect(marked.contains("data-hidden"))
        #expect(marked.contains("Words to hide."))
        #expect(marked.contains("Removed by a moderator — only moderators see this"))
        #expect(marked.contains("action=\"/comments/\(id)/restore\""))

        // Counts leave it out.
        let front = try anonymous.get("/").text
        #expect(frontCommentCount(slug, in: front) == 1)
        let shown = try anonymous.get("/articles/\(slug)").text
        let visible = commentIDs(in: shown).filter { !(commentElement($0, in: shown)?.contains("data-hidden") ?? true) }
        #expect(visible == [kept])
        #expect(commentIDs(in: shown) == [kept, id], "the hidden one keeps its place")
        var counts = try app.commentCounts(slug)
        #expect(counts == [1, 1])
        // Hiding closed its report.
        #expect(queueItems(in: try moderator.moderationPage()).isEmpty)

        // Hiding again changes nothing and records nothing.
        let again = try moderator.postForm("/comments/\(id)/hide")
        #expect(again.status == 303)
        #expect(flashText(in: try moderator.follow(again).text) == "The comment was already hidden.")
        #expect(try app.commentCounts(slug) == [1, 1])

        let restored = try moderator.postForm("/comments/\(id)/restore", [("note", "On reflection, fair")])
        #expect(restored.status == 303)
        #expect(restored["Location"] == "/articles/\(slug)#comment-\(id)")
        #expect(flashText(in: try moderator.follow(restored).text) == "The comment is restored.")
        let page = try anonymous.get("/articles/\(slug)").text
        #expect(page.contains("<p>Words to hide.</p>"))
        #expect(!(commentElement(id, in: page)?.contains("data-hidden") ?? true))
        #expect(frontCommentCount(slug, in: try anonymous.get("/").text) == 2)
        #expect(try anonymous.get("/users/writer").text.contains("Words to hide."))
        counts = try app.commentCounts(slug)
        #expect(counts == [2, 2])

        let rows = actionRows(in: try moderator.moderationPage())
        #expect(
            rows == [
                ActionRow(
                    action: "restore", who: "moderator", what: "restore", on: "comment \(id)",
                    note: "On reflection, fair"),
                ActionRow(action: "hide", who: "moderator", what: "hide", on: "comment \(id)", note: "Personal attack"),
            ])
        #expect(try moderator.postForm("/comments/999999/hide").status == 404)
        #expect(
            try moderator.postForm("/comments/\(id)/hide", [("note", String(repeating: "n", count: 501))]).status == 422
        )
        #expect(actionRows(in: try moderator.moderationPage()).count == 2, "nothing recorded for either")
    }

    /// The page cache: each copy the site shares (anonymous, and a logged-in reader's) was served
    /// at least once from the cache before the comment is hidden, and none may keep its text.
    @Test func aHiddenCommentsTextLeavesTheCachedAnonymousAndReaderCopiesAtOnce() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let id = try app.reader("author").comment(on: slug, "Cached words that must go.")
        let reader = try app.reader("reader")
        let moderator = try app.moderator()
        let token = try moderator.formToken(on: "/")
        let anonymous = app.client()
        for client in [anonymous, reader, anonymous, reader] {
            #expect(try client.get("/articles/\(slug)").text.contains("Cached words that must go."))
            #expect(frontCommentCount(slug, in: try client.get("/").text) == 1)
        }
        #expect(try moderator.post("/comments/\(id)/hide", form: [("csrf_token", token)]).status == 303)
        for (who, client) in [("anonymous", anonymous), ("reader", reader), ("new anonymous", app.client())] {
            let page = try client.get("/articles/\(slug)")
            #expect(page.status == 200)
            #expect(!page.text.contains("Cached words that must go."), "\(who)")
            #expect(commentElement(id, in: page.text)?.contains("Removed by a moderator.") == true, "\(who)")
            #expect(frontCommentCount(slug, in: try client.get("/").text) == 0, "\(who)")
        }
    }

    @Test func countsStayEqualToRowsWhenHiddenOrReportedCommentsAreDeleted() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let id = try author.comment(on: slug, "Hidden, then deleted.")
        let reported = try author.comment(on: slug, "Reported, then deleted.")
        let leaver = try app.reader("leaver")
        let leaversHidden = try leaver.comment(on: slug, "Hidden, then its account deleted.")
        _ = try leaver.comment(on: slug, "Visible, then its account deleted.")
        let moderator = try app.moderator()
        #expect(try app.reader("reporter").report(reported, on: slug, reason: "spam").status == 303)
        for hidden in [id, leaversHidden] { #expect(try moderator.postForm("/comments/\(hidden)/hide").status == 303) }
        #expect(try app.commentCounts(slug) == [2, 2])

        #expect(try author.postForm("/comments/\(id)/delete").status == 303)
        #expect(try app.commentCounts(slug) == [2, 2], "a hidden comment was already out of the count")
        #expect(try author.postForm("/comments/\(reported)/delete").status == 303)
        #expect(try app.commentCounts(slug) == [1, 1])
        #expect(try moderator.moderationPage().contains("No open reports."), "its reports went with it")
        #expect(
            try leaver.postForm("/account/delete", on: "/account", [("password", "a-long-pass-phrase")]).status == 303)
        #expect(try app.commentCounts(slug) == [0, 0])
        #expect(frontCommentCount(slug, in: try app.client().get("/").text) == 0)
    }

    @Test func nonModeratorsAre403AndNothingChanges() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let id = try app.reader("author").comment(on: slug, "Reported but untouchable by readers.")
        let reader = try app.reader("reader")
        #expect(try reader.report(id, on: slug, reason: "spam").status == 303)
        let editor = try app.editor("editor")
        for client in [reader, editor] {
            for path in [
                "/comments/\(id)/hide", "/comments/\(id)/restore", "/comments/\(id)/dismiss", "/users/author/ban",
                "/users/author/unban",
            ] {
                let refused = try client.postForm(path, [("note", "no"), ("hide_comments", "1")])
                #expect(refused.status == 403, "\(path)")
                #expect(refused.text.contains("moderators can do this. Your account is not one."), "\(path)")
            }
        }
        #expect(try app.client().get("/articles/\(slug)").text.contains("Reported but untouchable by readers."))
        let moderator = try app.moderator()
        let page = try moderator.moderationPage()
        #expect(queueItems(in: page).map(\.count) == [1], "the report is still open")
        #expect(actionRows(in: page).isEmpty, "nothing recorded")
        #expect(try app.client().login("author").status == 303, "not banned")

        // A cross-site POST by a moderator is refused too, and changes nothing.
        let token = try moderator.formToken(on: "/")
        let crossSite = try moderator.post(
            "/comments/\(id)/hide", form: [("csrf_token", token)], headers: [("Sec-Fetch-Site", "cross-site")])
        #expect(crossSite.status == 403)
        #expect(try app.client().get("/articles/\(slug)").text.contains("Reported but untouchable by readers."))
    }

    // MARK: Dismiss

    @Test func dismissClosesTheReportsAndTheCommentLeavesTheQueue() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let id = try author.comment(on: slug, "Harmless after all.")
        let still = try author.comment(on: slug, "Still reported.")
        for name in ["reader1", "reader2"] {
            #expect(try app.reader(name).report(id, on: slug, reason: "off-topic").status == 303)
        }
        #expect(try app.reader("reader3").report(still, on: slug, reason: "spam").status == 303)

        let moderator = try app.moderator()
        let queue = try moderator.moderationPage()
        let item = try #require(queueItems(in: queue).first { $0.id == id })
        let form = try #require(
            firstMatch(#"(?s)(<form method="post" action="/comments/\#(id)/dismiss".*?</form>)"#, in: item.html))
        let token = try #require(hiddenField("csrf_token", in: form))
        let dismissed = try moderator.post("/comments/\(id)/dismiss", form: [("csrf_token", token)])
        #expect(dismissed.status == 303)
        #expect(dismissed["Location"] == "/moderation")
        let after = try moderator.follow(dismissed).text
        #expect(flashText(in: after) == "The reports are dismissed.")
        #expect(queueItems(in: after).map(\.id) == [still], "it left the queue; the other stays")
        #expect(try app.client().get("/articles/\(slug)").text.contains("Harmless after all."), "still visible")
        let row = try #require(actionRows(in: after).first)
        #expect(row.action == "dismiss" && row.who == "moderator" && row.on == "comment \(id)")
        #expect(try app.commentCounts(slug) == [2, 2])

        let again = try moderator.postForm("/comments/\(id)/dismiss")
        #expect(again.status == 303)
        #expect(again["Location"] == "/moderation")
        let unchanged = try moderator.follow(again).text
        #expect(flashText(in: unchanged) == "That comment had no open reports.")
        #expect(actionRows(in: unchanged).count == 1, "nothing more recorded")
    }

    // MARK: Ban and unban

    @Test func aBannedReadersOpenSessionsGet403OnTheirNextPostAndAreLoggedOut() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let troll = try app.reader("troll")
        let id = try troll.comment(on: slug, "Written before the ban.")
        let phone = app.client()
        _ = try phone.login("troll")
        let laptop = app.client()
        _ = try laptop.login("troll")
        let tokenBefore = try troll.formToken(on: "/articles/\(slug)")
        let laptopToken = try laptop.formToken(on: "/account")
        let phoneCookie = try #require(phone.cookies["herald_session"])
        #expect(try app.reader("reporter").report(id, on: slug, reason: "abuse").status == 303)

        // The moderator bans from the queue's form (without hiding the comments).
        let moderator = try app.moderator()
        let item = try #require(queueItems(in: try moderator.moderationPage()).first)
        let form = try #require(
            firstMatch(#"(?s)(<form method="post" action="/users/troll/ban".*?</form>)"#, in: item.html))
        let banned = try moderator.post(
            "/users/troll/ban",
            form: [
                ("csrf_token", try #require(hiddenField("csrf_token", in: form))), ("back", "/moderation"),
                ("note", "trolling"), ("duration", "permanent"),
            ])
        #expect(banned.status == 303)
        #expect(banned["Location"] == "/moderation")
        #expect(
            flashText(in: try moderator.follow(banned).text)
                == "“troll” is banned permanently: logged out everywhere and unable to log in.")

        // Its next POST with the old session: 403, suspended, and the session cookie expired.
        let post = try troll.post(
            "/articles/\(slug)/comments", form: [("csrf_token", tokenBefore), ("body", "Written after the ban.")])
        #expect(post.status == 403)
        #expect(post.text.contains("This account is suspended"))
        #expect(!post.text.contains("Signed in as"))
        #expect(
            post.headers.values(for: "Set-Cookie").contains {
                $0.hasPrefix("herald_session=") && $0.lowercased().contains("max-age=0")
            })
        #expect(troll.cookies["herald_session"] == nil, "logged out")
        #expect(troll.cookies["herald_intent"] == nil, "nothing captured for a login that cannot come")
        #expect(!(try app.client().get("/articles/\(slug)").text.contains("Written after the ban.")))

        // Every other session ended at the same moment: one's first POST is refused the same way…
        let fromLaptop = try laptop.post(
            "/account/email",
            form: [
                ("csrf_token", laptopToken), ("email", "troll@example.com"), ("current_password", "a-long-pass-phrase"),
            ])
        #expect(fromLaptop.status == 403)
        #expect(fromLaptop.text.contains("This account is suspended"))
        #expect(laptop.cookies["herald_session"] == nil)
        // …and another's GET just shows the page logged out (and ends the cookie).
        let page = try phone.get("/articles/\(slug)")
        #expect(page.status == 200)
        #expect(!page.text.contains("Signed in as"))
        #expect(page.text.contains("href=\"/login?next="))
        #expect(phone.cookies["herald_session"] == nil)
        // A copy of that cookie is worth nothing now: a POST with it is not the account's.
        let copy = app.client()
        copy.setCookie("herald_session", phoneCookie)
        let copied = try copy.post(
            "/articles/\(slug)/comments", form: [("csrf_token", tokenBefore), ("body", "From a copied cookie.")])
        #expect(copied.status == 403)
        #expect(!(try app.client().get("/articles/\(slug)").text.contains("From a copied cookie.")))

        // Its logins are refused; its comment stays (the ban did not ask to hide it).
        let login = try app.client().login("troll")
        #expect(login.status == 403)
        #expect(login.text.contains("This account is suspended"))
        #expect(try app.client().get("/articles/\(slug)").text.contains("Written before the ban."))
        let row = try #require(actionRows(in: try moderator.moderationPage()).first)
        #expect(row.action == "ban" && row.who == "moderator" && row.on == "user troll")

        // Unban: it may log in again; the sessions the ban ended stay ended.
        let unbanned = try moderator.postForm("/users/troll/unban")
        #expect(unbanned.status == 303)
        #expect(unbanned["Location"] == "/moderation")
        #expect(flashText(in: try moderator.follow(unbanned).text) == "“troll” may log in again.")
        let again = app.client()
        #expect(try again.login("troll").status == 303)
        #expect(try again.get("/").text.contains("Signed in as <strong>troll</strong>"))
        let stale = app.client()
        stale.setCookie("herald_session", phoneCookie)
        #expect(!(try stale.get("/").text.contains("Signed in as")))
        #expect(actionRows(in: try moderator.moderationPage()).map(\.action) == ["unban", "ban"])
    }

    @Test func aBannedAccountsPendingCommentIsNotPostedAndItsTextIsShownBack() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.reader("banned").logout()
        _ = try app.moderator().postForm("/users/banned/ban", on: "/", Self.permanentBan)

        let visitor = app.client()
        let text = "Typed while logged out & <kept> for the banned reader."
        let token = try visitor.formToken(on: "/articles/\(slug)")
        let captured = try visitor.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", text)])
        #expect(captured["Location"] == "/login")
        let login = try visitor.login("banned")
        #expect(login.status == 403)
        #expect(login.text.contains("This account is suspended"))
        #expect(login.text.contains("<textarea"))
        #expect(
            firstMatch(#"(?s)<textarea[^>]*>(.*?)</textarea>"#, in: login.text) == escapeHTML(text),
            "the typed text, shown back")
        #expect(visitor.cookies["herald_session"] == nil, "not logged in")
        #expect(visitor.cookies["herald_intent"] == nil, "the pending comment is dropped, not kept for later")
        #expect(!(try app.client().get("/articles/\(slug)").text.contains("Typed while logged out")))

        // A pending report is not performed either.
        let id = try app.reader("author").comment(on: slug, "Not reported by a banned reader.")
        let reporter = app.client()
        #expect(try reporter.report(id, on: slug, reason: "spam")["Location"] == "/login")
        #expect(try reporter.login("banned").status == 403)
        // Nor is a password reset a way in.
        let resetToken = try #require(try app.app.accounts.passwordResetToken(for: "banned"))
        let resetter = app.client()
        let reset = try resetter.postForm(
            "/password/reset/\(resetToken)", on: "/password/reset/\(resetToken)",
            [("new_password", "a-brand-new-phrase")])
        #expect(reset.status == 403)
        #expect(reset.text.contains("This account is suspended"))
        #expect(resetter.cookies["herald_session"] == nil)

        // Unbanned, it logs in again, and nothing that was pending is performed then.
        let moderator = app.client()
        _ = try moderator.login("moderator")
        #expect(try moderator.postForm("/users/banned/unban").status == 303)
        #expect(try visitor.login("banned")["Location"] == "/")
        #expect(!(try app.client().get("/articles/\(slug)").text.contains("Typed while logged out")))
        #expect(queueItems(in: try moderator.moderationPage()).isEmpty)
    }

    @Test func aBanWithHideCommentsHidesAllItsCommentsAndEveryCountFollows() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let other = try app.secondSlug()
        let spammer = try app.reader("spammer")
        let spam = [
            try spammer.comment(on: slug, "Spam one."), try spammer.comment(on: slug, "Spam two."),
            try spammer.comment(on: other, "Spam three."),
        ]
        let bystander = try app.reader("bystander")
        let innocent = try bystander.comment(on: slug, "An innocent remark.")
        #expect(try bystander.report(spam[0], on: slug, reason: "spam").status == 303)
        #expect(try bystander.report(spam[2], on: other, reason: "spam").status == 303)
        let moderator = try app.moderator()
        let queuePage = try moderator.moderationPage()
        let texts = ["Spam one.", "Spam two.", "Spam three."]
        let anonymous = app.client()
        for _ in 0..<2 {
            #expect(try anonymous.get("/articles/\(slug)").text.contains("Spam two."))
            #expect(try anonymous.get("/articles/\(other)").text.contains("Spam three."))
            #expect(try anonymous.get("/users/spammer").text.contains("Spam one."))
            #expect(frontCommentCount(slug, in: try anonymous.get("/").text) == 3)
            #expect(frontCommentCount(other, in: try anonymous.get("/").text) == 1)
        }

        let item = try #require(queueItems(in: queuePage).first)
        let form = try #require(
            firstMatch(#"(?s)(<form method="post" action="/users/spammer/ban".*?</form>)"#, in: item.html))
        let banned = try moderator.post(
            "/users/spammer/ban",
            form: [
                ("csrf_token", try #require(hiddenField("csrf_token", in: form))), ("back", "/moderation"),
                ("hide_comments", "1"), ("note", "spam"), ("duration", "7d"),
            ])
        #expect(banned.status == 303)
        #expect(banned["Location"] == "/moderation")
        let queue = try moderator.follow(banned).text
        #expect(flashText(in: queue)?.contains("3 comments are hidden.") == true)
        #expect(queue.contains("No open reports."), "their reports are closed with them")
        let row = try #require(actionRows(in: queue).first)
        #expect(row.action == "ban" && row.who == "moderator" && row.on == "user spammer")
        #expect(row.note.contains("3 comments hidden"))

        for (path, ids) in [("/articles/\(slug)", Array(spam[0...1])), ("/articles/\(other)", [spam[2]])] {
            let page = try anonymous.get(path).text
            for text in texts { #expect(!page.contains(text), "\(path)") }
            for id in ids {
                let element = try #require(commentElement(id, in: page), "\(path) keeps comment \(id)")
                #expect(element.contains("data-hidden") && element.contains("Removed by a moderator."))
            }
        }
        #expect(try anonymous.get("/articles/\(slug)").text.contains("An innocent remark."))
        let profile = try anonymous.get("/users/spammer").text
        for text in texts { #expect(!profile.contains(text), "the profile") }

        // Counts equal the visible comments, on the page and in the store.
        let front = try anonymous.get("/").text
        for (articleSlug, expected) in [(slug, [innocent]), (other, [])] {
            let page = try anonymous.get("/articles/\(articleSlug)").text
            let visible = commentIDs(in: page).filter {
                !(commentElement($0, in: page)?.contains("data-hidden") ?? true)
            }
            #expect(visible == expected, "\(articleSlug)")
            #expect(frontCommentCount(articleSlug, in: front) == expected.count, "\(articleSlug)")
            let counts = try app.commentCounts(articleSlug)
            #expect(counts == [expected.count, expected.count], "\(articleSlug)")
        }
        #expect(try app.client().login("spammer").status == 403)

        // Unbanning does not bring the comments back; restoring one does, and its count.
        #expect(try moderator.postForm("/users/spammer/unban").status == 303)
        #expect(!(try anonymous.get("/articles/\(slug)").text.contains("Spam one.")))
        #expect(try moderator.postForm("/comments/\(spam[0])/restore").status == 303)
        #expect(try anonymous.get("/articles/\(slug)").text.contains("Spam one."))
        #expect(try app.commentCounts(slug) == [2, 2])
    }

    @Test func moderatorsCannotBanAdminsAndNobodyCanBanThemselves() throws {
        let app = try TestApp(server: false, demo: false)
        let moderator = try app.moderator("mod")
        let admin = try app.admin("boss")
        _ = try app.moderator("mod2")

        let adminBan = try moderator.postForm("/users/boss/ban", on: "/", Self.permanentBan)
        #expect(adminBan.status == 403)
        #expect(adminBan.text.contains("Moderators cannot ban an admin."))
        for (client, name) in [(moderator, "mod"), (admin, "boss")] {
            let own = try client.postForm("/users/\(name)/ban", on: "/", Self.permanentBan)
            #expect(own.status == 422, "\(name)")
            #expect(own.text.contains("You cannot ban yourself."), "\(name)")
        }
        #expect(try moderator.postForm("/users/nobody-here/ban", on: "/", Self.permanentBan).status == 404)
        #expect(try moderator.postForm("/users/nobody-here/unban").status == 404)
        #expect(try moderator.get("/").text.contains("Signed in as <strong>mod</strong>"), "still logged in")
        #expect(try admin.get("/").text.contains("Signed in as <strong>boss</strong>"), "still logged in")
        #expect(actionRows(in: try moderator.moderationPage()).isEmpty, "nothing recorded")

        // An admin may ban a moderator.
        #expect(try admin.postForm("/users/mod2/ban", on: "/", Self.permanentBan).status == 303)
        #expect(try app.client().login("mod2").status == 403)
        #expect(try admin.postForm("/users/mod2/unban").status == 303)
        #expect(try app.client().login("mod2").status == 303)
    }

    // MARK: Resumable moderator POSTs

    @Test func everyModeratorPostMadeLoggedOutIsPerformedAfterLogin() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let hideMe = try author.comment(on: slug, "Hidden after a login.")
        let dismissMe = try author.comment(on: slug, "Reports dismissed after a login.")
        _ = try author.logout()
        let reporter = try app.reader("reporter")
        #expect(try reporter.report(dismissMe, on: slug, reason: "other").status == 303)
        _ = try app.moderator("mod").logout()
        _ = try app.reader("target").logout()

        struct Case {
            let path: String
            let fields: [(String, String)]
            let pending: String
            let location: String
            let flash: String
        }
        let cases = [
            Case(
                path: "/comments/\(hideMe)/hide", fields: [("note", "captured note"), ("back", "/moderation")],
                pending: "Log in to hide a comment", location: "/moderation",
                flash: "The comment is hidden from readers."),
            Case(
                path: "/comments/\(hideMe)/restore", fields: [("note", "restored later")],
                pending: "Log in to restore a comment", location: "/articles/\(slug)#comment-\(hideMe)",
                flash: "The comment is restored."),
            Case(
                path: "/comments/\(dismissMe)/dismiss", fields: [],
                pending: "Log in to dismiss the reports on a comment", location: "/moderation",
                flash: "The reports are dismissed."),
            Case(
                path: "/users/target/ban",
                fields: [
                    ("hide_comments", "1"), ("back", "/moderation"), ("note", "abuse"), ("duration", "permanent"),
                ],
                pending: "Log in to ban “target” permanently and hide all their comments with the note “abuse”",
                location: "/moderation",
                flash: "“target” is banned permanently: logged out everywhere and unable to log in."),
            Case(
                path: "/users/target/unban", fields: [], pending: "Log in to unban “target”", location: "/moderation",
                flash: "“target” may log in again."),
        ]
        for (index, step) in cases.enumerated() {
            let browser = app.client()
            let captured = try browser.postForm(step.path, on: "/login", step.fields)
            #expect(captured.status == 303, "\(step.path)")
            #expect(captured["Location"] == "/login", "\(step.path)")
            #expect(try browser.get("/login").text.contains(step.pending), "\(step.path)")
            let login = try browser.login("mod")
            #expect(login.status == 303, "\(step.path)")
            #expect(login["Location"] == step.location, "\(step.path)")
            #expect(flashText(in: try browser.follow(login).text) == step.flash, "\(step.path)")
            let rows = actionRows(in: try browser.moderationPage())
            #expect(rows.count == index + 1, "\(step.path): performed once")
            #expect(rows.first?.who == "mod", "\(step.path)")
            if index == 0 {
                #expect(rows.first?.note == "captured note")
                #expect(!(try app.client().get("/articles/\(slug)").text.contains("Hidden after a login.")))
            }
            if index == 1 { #expect(try app.client().get("/articles/\(slug)").text.contains("Hidden after a login.")) }
            if index == 2 { #expect(queueItems(in: try browser.moderationPage()).isEmpty) }
            if index == 3 { #expect(try app.client().login("target").status == 403) }
            if index == 4 { #expect(try app.client().login("target").status == 303) }
        }

        // A reader who logs in with a captured moderator action is refused, and nothing changes.
        let stranger = app.client()
        #expect(try stranger.postForm("/comments/\(hideMe)/hide", on: "/login")["Location"] == "/login")
        let refused = try stranger.login("reporter")
        #expect(refused.status == 403)
        #expect(refused.text.contains("moderators can do this. Your account is not one."))
        #expect(try stranger.get("/").text.contains("Signed in as <strong>reporter</strong>"), "the login stands")
        #expect(try app.client().get("/articles/\(slug)").text.contains("Hidden after a login."))
        let moderator = app.client()
        _ = try moderator.login("mod")
        #expect(actionRows(in: try moderator.moderationPage()).count == cases.count)
    }

    // MARK: The command line

    @Test func theCommandLineBansUnbansHidesAndRestoresAsCli() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = try app.reader("rowdy")
        let id = try reader.comment(on: slug, "Hidden from the command line.")
        let token = try reader.formToken(on: "/articles/\(slug)")
        let moderator = try app.moderator()
        let anonymous = app.client()
        for _ in 0..<2 {
            #expect(try anonymous.get("/articles/\(slug)").text.contains("Hidden from the command line."))
        }

        let hidden = try runHerald(["comments"] + app.storeArguments + ["hide", "\(id)"])
        #expect(hidden.status == 0, "\(hidden.err)")
        #expect(hidden.out == "comment \(id): hidden\n")
        // Another process wrote it: the cached anonymous copy goes within the cache's second.
        let started = Date()
        var page = ""
        repeat {
            page = try anonymous.get("/articles/\(slug)").text
            if !page.contains("Hidden from the command line.") { break }
            Thread.sleep(forTimeInterval: 0.05)
        } while Date().timeIntervalSince(started) < 3
        #expect(
            !page.contains("Hidden from the command line."), "still shown \(Date().timeIntervalSince(started)) s later")
        #expect(Date().timeIntervalSince(started) < 1.5)
        #expect(commentElement(id, in: page)?.contains("data-hidden") == true)
        #expect(try app.commentCounts(slug) == [0, 0])
        #expect(
            try runHerald(["comments"] + app.storeArguments + ["hide", "\(id)"]).out
                == "comment \(id): already hidden\n")

        let restored = try runHerald(["comments"] + app.storeArguments + ["restore", "\(id)"])
        #expect(restored.status == 0, "\(restored.err)")
        #expect(restored.out == "comment \(id): restored\n")
        #expect(try moderator.get("/articles/\(slug)").text.contains("<p>Hidden from the command line.</p>"))
        #expect(try app.commentCounts(slug) == [1, 1])

        let banned = try runHerald(["users"] + app.storeArguments + ["ban", "rowdy"])
        #expect(banned.status == 0, "\(banned.err)")
        let refused = try reader.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", "After.")])
        #expect(refused.status == 403)
        #expect(refused.text.contains("This account is suspended"))
        #expect(reader.cookies["herald_session"] == nil)
        #expect(try app.client().login("rowdy").status == 403)
        let unbanned = try runHerald(["users"] + app.storeArguments + ["unban", "rowdy"])
        #expect(unbanned.status == 0, "\(unbanned.err)")
        #expect(try app.client().login("rowdy").status == 303)

        let rows = actionRows(in: try moderator.moderationPage())
        #expect(
            rows.map { [$0.action, $0.who, $0.on] } == [
                ["unban", "cli", "user rowdy"], ["ban", "cli", "user rowdy"], ["restore", "cli", "comment \(id)"],
                ["hide", "cli", "comment \(id)"],
            ])

        // Unknown names and ids: a message on stderr, exit 1, nothing changed or recorded.
        for (arguments, message) in [
            (["users"] + app.storeArguments + ["ban", "nobody-here"], "no user is called “nobody-here”"),
            (["users"] + app.storeArguments + ["unban", "nobody-here"], "no user is called “nobody-here”"),
            (["comments"] + app.storeArguments + ["hide", "999999"], "there is no comment 999999"),
            (["comments"] + app.storeArguments + ["restore", "999999"], "there is no comment 999999"),
            (["comments"] + app.storeArguments + ["hide", "abc"], "is not a comment id"),
            (["comments"] + app.storeArguments + ["hide"], "usage"),
        ] {
            let failed = try runHerald(arguments)
            #expect(failed.status == 1, "\(arguments.suffix(2))")
            #expect(failed.err.contains(message), "\(arguments.suffix(2)): \(failed.err)")
            #expect(failed.out.isEmpty, "\(arguments.suffix(2))")
        }
        #expect(actionRows(in: try moderator.moderationPage()).count == 4)
        #expect(try app.client().get("/articles/\(slug)").text.contains("Hidden from the command line."))
    }
}
