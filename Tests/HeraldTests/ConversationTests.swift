import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// SPEC "Conversations" and "Resumable everywhere, and nothing typed is lost", issue #19:
/// replies, editing, pages of comments, reply notifications, and text that waited too long.
/// Everything goes through HTTP as a browser without JavaScript sends it, forms read from pages.
@Suite struct ConversationTests {
    // MARK: Replies

    @Test func everyCommentHasAReplyFormWithoutJavaScriptAndAReplySitsInsideItsParent() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let asker = try app.reader("asker")
        let answerer = try app.reader("answerer")
        let first = try #require(commentID(in: try asker.postComment(slug, "Who wrote this?")["Location"]))
        let second = try #require(commentID(in: try answerer.postComment(slug, "A second opinion.")["Location"]))

        // Every comment carries its own reply form, in a <details> (no JavaScript), naming it as parent,
        // for anonymous readers as for logged-in ones.
        for client in [app.client(), answerer] {
            let page = try client.get("/articles/\(slug)").text
            for id in [first, second] {
                let form = try #require(replyForm(of: id, in: page), "no reply form under comment \(id)")
                #expect(form.action == "/articles/\(slug)/comments")
                #expect(form.value("parent") == String(id))
                #expect(form.value("csrf_token")?.isEmpty == false)
                let element = try #require(commentElement(id, in: page))
                #expect(element.contains("<summary>Reply</summary>"))
                #expect(element.contains("name=\"body\""))
            }
            #expect(commentAttribute("data-parent", of: first, in: page) == nil, "a top-level comment has no parent")
        }

        let replied = try answerer.reply(to: first, on: slug, "The byline says who.")
        #expect(replied.status == 303)
        let reply = try #require(commentID(in: replied["Location"]))
        #expect(replied["Location"] == "/articles/\(slug)#comment-\(reply)")
        let page = try answerer.land(replied).text
        #expect(page.contains("role=\"status\">Your reply on"))
        let parentElement = try #require(commentElement(first, in: page))
        #expect(parentElement.contains("id=\"comment-\(reply)\""), "the reply is inside its parent's element")
        #expect(!(try #require(commentElement(second, in: page))).contains("id=\"comment-\(reply)\""))
        #expect(commentAttribute("data-parent", of: reply, in: page) == String(first))
        #expect(commentAttribute("data-depth", of: reply, in: page) == "2")
        #expect(try #require(commentElement(reply, in: page)).contains("<p>The byline says who.</p>"))
        #expect(replyForm(of: reply, in: page) != nil, "a reply can be answered too")
        // Top-level comments stay oldest first, the reply does not become one.
        #expect(topLevelCommentIDs(in: page) == [first, second])
    }

    /// A chain of six comments (a top-level one and five replies, each answering the one before):
    /// nesting stops at depth 3; the deeper replies are shown inside the depth-3 comment's element,
    /// side by side, each naming the comment it really answered.
    @Test func nestingStopsAtDepthThreeAndDeeperRepliesAttachToTheDepthThreeComment() throws {
        let app = try TestApp(server: false) { $0.commentsPerMinute = 100 }
        let slug = try app.firstSlug()
        let reader = try app.reader("threader")
        var chain = [try #require(commentID(in: try reader.postComment(slug, "Level one.")["Location"]))]
        for level in 2...6 {
            let response = try reader.reply(to: chain.last!, on: slug, "Level \(level).")
            #expect(response.status == 303, "reply \(level - 1): \(response.status) \(response.text.prefix(300))")
            chain.append(try #require(commentID(in: response["Location"])))
        }
        let page = try app.client().get("/articles/\(slug)").text
        #expect(topLevelCommentIDs(in: page) == [chain[0]])
        #expect(commentAttribute("data-depth", of: chain[1], in: page) == "2")
        #expect(commentAttribute("data-depth", of: chain[2], in: page) == "3")
        for (index, id) in chain.enumerated().dropFirst() {
            #expect(commentAttribute("data-parent", of: id, in: page) == String(chain[index - 1]), "its real parent")
        }
        let depthThree = try #require(commentElement(chain[2], in: page))
        for deeper in chain[3...] {
            #expect(depthThree.contains("id=\"comment-\(deeper)\""), "comment \(deeper) inside the depth-3 comment")
        }
        // Not nested any further: the 4th and 5th replies are not inside the 3rd reply's element.
        let fourth = try #require(commentElement(chain[3], in: page))
        #expect(!fourth.contains("id=\"comment-\(chain[4])\""))
        #expect(!fourth.contains("id=\"comment-\(chain[5])\""))
        #expect(!(try #require(commentElement(chain[4], in: page))).contains("id=\"comment-\(chain[5])\""))
        // Each keeps its own reply form, naming itself.
        for id in chain { #expect(replyForm(of: id, in: page) != nil, "reply form under \(id)") }
        #expect(try app.frontPageCommentCount(of: slug) == 6)
    }

    enum BadParent: String, CaseIterable {
        case otherArticle, unknown, notANumber, zero, negative, hidden, deleted
    }

    /// `parent` must be a visible comment on the same article; anything else is 422 with the text kept.
    @Test(arguments: BadParent.allCases)
    func aParentThatIsNotAVisibleCommentOnThisArticleIs422WithTheTextKept(_ bad: BadParent) throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let other = try app.secondSlug()
        let author = try app.reader("author")
        let elsewhere = try #require(commentID(in: try author.postComment(other, "On another article.")["Location"]))
        let victim = try #require(commentID(in: try author.postComment(slug, "About to go.")["Location"]))
        let parent: String
        switch bad {
        case .otherArticle: parent = String(elsewhere)
        case .unknown: parent = "999999"
        case .notANumber: parent = "abc"
        case .zero: parent = "0"
        case .negative: parent = "-\(victim)"
        case .hidden:
            #expect(try app.moderator().hideComment(victim, on: slug).status == 303)
            parent = String(victim)
        case .deleted:
            #expect(try author.deleteComment(victim).status == 303)
            parent = String(victim)
        }
        let before = try app.frontPageCommentCount(of: slug)
        let replier = try app.reader("replier")
        let text = "My carefully written answer, which must not be lost."
        let response = try replier.postComment(slug, text, parent: parent)
        #expect(response.status == 422, "parent \(parent) (\(bad)): \(response.status) \(response["Location"] ?? "")")
        #expect(
            mainCommentForm(in: response.text).flatMap { bodyTextarea(in: $0.html) } == text,
            "the text is kept in the form")
        #expect(response.text.contains("role=\"alert\""), "with a message")
        #expect(try app.frontPageCommentCount(of: slug) == before, "nothing posted")
        #expect(!(try app.client().get("/articles/\(slug)").text.contains("<p>\(text)</p>")))
    }

    /// A reader opens the reply form under the newest comment; its author deletes it and someone
    /// else posts a new comment; the reply is then sent. Its parent is gone: 422 with the text kept,
    /// never a reply attached to the new comment (whatever id the store gave that one).
    @Test func aReplyToACommentDeletedWhileItsFormWasOpenIsNotAttachedToALaterComment() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let parent = try #require(commentID(in: try author.postComment(slug, "Deleted in a minute.")["Location"]))
        let replier = try app.reader("replier")
        let page = try replier.get("/articles/\(slug)").text
        let form = try #require(replyForm(of: parent, in: page))
        #expect(try author.deleteComment(parent).status == 303)
        let newcomer = try #require(
            commentID(in: try app.reader("bystander").postComment(slug, "Unrelated, and newer.")["Location"]))
        let text = "An answer meant for the deleted comment."
        let response = try replier.post(form.action, form: form.hidden + [("body", text)])
        #expect(
            response.status == 422,
            "parent \(parent) was deleted, the new comment is \(newcomer): \(response.status) \(response["Location"] ?? "")"
        )
        #expect(mainCommentForm(in: response.text).flatMap { bodyTextarea(in: $0.html) } == text)
        let after = try app.client().get("/articles/\(slug)").text
        #expect(!(commentElement(newcomer, in: after)?.contains(text) ?? false), "not attached to the new comment")
    }

    /// The author deletes a comment that has a reply: the reply stays, under a "Deleted comment" in
    /// its parent's place, still naming it.
    @Test func aReplyWhoseParentWasDeletedStaysUnderADeletedCommentPlaceholder() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("regretful")
        let replier = try app.reader("replier")
        let parent = try #require(commentID(in: try author.postComment(slug, "Something I regret.")["Location"]))
        let reply = try #require(commentID(in: try replier.reply(to: parent, on: slug, "You should.")["Location"]))
        let later = try #require(commentID(in: try replier.postComment(slug, "A later comment.")["Location"]))
        #expect(try author.deleteComment(parent)["Location"] == "/articles/\(slug)")

        let page = try app.client().get("/articles/\(slug)").text
        #expect(!page.contains("Something I regret."))
        let placeholder = try #require(commentElement(parent, in: page), "the deleted comment keeps its place")
        #expect(placeholder.contains("Deleted comment"))
        #expect(commentAttribute("data-deleted", of: parent, in: page) != nil)
        #expect(placeholder.contains("id=\"comment-\(reply)\""), "the reply is under the placeholder")
        #expect(placeholder.contains("<p>You should.</p>"))
        #expect(commentAttribute("data-parent", of: reply, in: page) == String(parent))
        #expect(replyForm(of: parent, in: page) == nil, "a deleted comment cannot be answered")
        #expect(topLevelCommentIDs(in: page) == [parent, later], "in its place, oldest first")
        #expect(try app.frontPageCommentCount(of: slug) == 2)
    }

    /// The same when the deleted comment was itself a reply: its reply stays in the conversation,
    /// under a placeholder inside the grandparent (SPEC: a reply sits inside its parent's element).
    @Test func aReplyWhoseDeletedParentWasItselfAReplyStaysInItsConversation() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let opener = try app.reader("opener")
        let middle = try app.reader("middle")
        let top = try #require(commentID(in: try opener.postComment(slug, "Opening the conversation.")["Location"]))
        let deleted = try #require(commentID(in: try middle.reply(to: top, on: slug, "Soon gone.")["Location"]))
        let reply = try #require(
            commentID(in: try opener.reply(to: deleted, on: slug, "Answering the gone one.")["Location"]))
        #expect(try middle.deleteComment(deleted).status == 303)

        let page = try app.client().get("/articles/\(slug)").text
        #expect(topLevelCommentIDs(in: page) == [top], "no new conversation appears")
        let conversation = try #require(commentElement(top, in: page))
        #expect(conversation.contains("id=\"comment-\(deleted)\""), "the placeholder stays inside the top comment")
        #expect(conversation.contains("id=\"comment-\(reply)\""), "and so does the reply")
        let placeholder = try #require(commentElement(deleted, in: page))
        #expect(placeholder.contains("Deleted comment"))
        #expect(placeholder.contains("id=\"comment-\(reply)\""))
        #expect(commentAttribute("data-parent", of: reply, in: page) == String(deleted))
    }

    @Test func theFrontPageCommentCountIsTheTotalIncludingReplies() throws {
        let app = try TestApp(server: false) { $0.commentsPerMinute = 100 }
        let slug = try app.firstSlug()
        let one = try app.reader("one")
        let two = try app.reader("two")
        let first = try #require(commentID(in: try one.postComment(slug, "First.")["Location"]))
        let second = try #require(commentID(in: try two.postComment(slug, "Second.")["Location"]))
        let reply = try #require(commentID(in: try two.reply(to: first, on: slug, "Reply.")["Location"]))
        _ = try one.reply(to: reply, on: slug, "Reply to the reply.")
        _ = try one.reply(to: second, on: slug, "Another reply.")
        #expect(try app.frontPageCommentCount(of: slug) == 5)
        let article = try #require(try app.app.articles.article(slug: slug))
        #expect(article.commentCount == 5)
        #expect(try CommentStore(database: app.app.database).countVisibleRows(articleID: article.id) == 5)
    }

    // MARK: Anonymous replies

    /// The reply form submitted while logged out: captured with its parent, the login and register
    /// pages say so with the start of its text, and after registration it is posted once, in place.
    @Test func anAnonymousReplyIsPostedAfterRegistrationOnceInsideItsParent() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let parent = try #require(commentID(in: try author.postComment(slug, "Anyone agree?")["Location"]))
        _ = try author.postComment(slug, "Another top-level comment.")

        let reader = app.client()
        let text = "Captured while logged out, an answer that waits through the registration form."
        let captured = try reader.reply(to: parent, on: slug, text)
        #expect(captured.status == 303)
        #expect(captured["Location"] == "/login")
        let cookie = try #require(captured.headers.values(for: "Set-Cookie").first { $0.hasPrefix("herald_intent=") })
        let maxAge = try #require(Int(firstMatch(#"Max-Age=(\d+)"#, in: cookie) ?? ""))
        #expect(maxAge > 15 * 60 && maxAge <= 86_400, "kept up to a day, so its text can come back")
        let intent = try IntentCodec(keys: SecretKeys(current: try #require(app.configuration.secret)))
            .decode(try #require(reader.cookies["herald_intent"]), now: app.configuration.clock.now()).get()
        #expect(intent.fields.contains(["parent", String(parent)]), "the parent rides the intent: \(intent.fields)")
        #expect(try reader.get("/login").text.contains("Captured while logged out, an answer that waits"))
        #expect(try reader.get("/register").text.contains("Captured while logged out, an answer that waits"))

        let registered = try reader.register("newcomer")
        #expect(registered.status == 303)
        let reply = try #require(commentID(in: registered["Location"]), "\(registered["Location"] ?? "no Location")")
        #expect(registered["Location"] == "/articles/\(slug)#comment-\(reply)")
        #expect(reader.cookies["herald_intent"] == nil)
        let page = try reader.land(registered).text
        #expect(occurrences(of: text, in: page) == 1, "posted exactly once")
        #expect(commentAttribute("data-parent", of: reply, in: page) == String(parent), "as a reply to its parent")
        #expect(try #require(commentElement(parent, in: page)).contains("id=\"comment-\(reply)\""))
        #expect(page.contains("role=\"status\">Your reply on"))
        // Logging in again does not post it again.
        _ = try reader.logout()
        _ = try reader.login("newcomer")
        #expect(occurrences(of: text, in: try app.client().get("/articles/\(slug)").text) == 1)
    }

    @Test func anAnonymousReplySurvivesAWrongPasswordAndIsPostedAfterLogin() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.client().register("returning")
        let author = try app.reader("author")
        let parent = try #require(commentID(in: try author.postComment(slug, "Thoughts?")["Location"]))
        let reader = app.client()
        #expect(try reader.reply(to: parent, on: slug, "Survives a typo in the password.")["Location"] == "/login")
        let failed = try reader.login("returning", "not-the-password")
        #expect(failed.status == 422)
        #expect(failed.text.contains("Survives a typo in the password."), "still pending, and said so")
        let login = try reader.login("returning")
        let reply = try #require(commentID(in: login["Location"]))
        let page = try reader.land(login).text
        #expect(occurrences(of: "Survives a typo in the password.", in: page) == 1)
        #expect(commentAttribute("data-parent", of: reply, in: page) == String(parent))
    }

    /// A reply typed while logged out, then a forgotten password reset by email: posted once, in place.
    @Test func anAnonymousReplyIsPostedAfterAPasswordReset() throws {
        let sink = try SMTPSink()
        let app = try TestApp(server: false) {
            $0.smtpURL = sink.url
            $0.mailFrom = "Herald <news@herald.test>"
            $0.baseURL = "http://news.herald.test"
        }
        let slug = try app.firstSlug()
        let registering = app.client()
        let token = try registering.formToken(on: "/register")
        #expect(
            try registering.post(
                "/register",
                form: [
                    ("csrf_token", token), ("username", "forgetful"), ("password", "a-long-pass-phrase"),
                    ("email", "forgetful@example.com"),
                ]
            ).status == 303)
        let author = try app.reader("author")
        let parent = try #require(commentID(in: try author.postComment(slug, "Ask me anything.")["Location"]))

        let reader = app.client()
        let text = "Typed before I remembered that I had forgotten my password."
        #expect(try reader.reply(to: parent, on: slug, text)["Location"] == "/login")
        let forgotToken = try reader.formToken(on: "/password/forgot")
        #expect(
            try reader.post(
                "/password/forgot", form: [("csrf_token", forgotToken), ("email", "forgetful@example.com")]
            )
            .status == 303)
        let mail = try #require(try sink.messages(1).first)
        let plain = try #require(mail.part("text/plain"))
        let link = try #require(firstMatch(#"http://news\.herald\.test(/password/reset/[A-Za-z0-9_-]{43})"#, in: plain))
        let resetToken = try reader.formToken(on: link)
        let reset = try reader.post(link, form: [("csrf_token", resetToken), ("new_password", "a-brand-new-phrase")])
        #expect(reset.status == 303)
        let reply = try #require(commentID(in: reset["Location"]), "\(reset["Location"] ?? "no Location")")
        let page = try reader.land(reset).text
        #expect(occurrences(of: text, in: page) == 1, "posted exactly once")
        #expect(commentAttribute("data-parent", of: reply, in: page) == String(parent))
        #expect(try #require(commentElement(parent, in: page)).contains("id=\"comment-\(reply)\""))
    }

    enum GoneParent: String, CaseIterable { case hidden, deleted, deletedThenAnotherPosted }

    /// The parent was hidden by a moderator, or deleted by its author, while the reader logged in:
    /// the reply is not posted anywhere; its text goes back to the reader with a message. Also when
    /// the deleted parent was the newest comment and someone posts a new one meanwhile (which must
    /// not inherit the pending reply, whatever id the store gives it).
    @Test(arguments: GoneParent.allCases)
    func anAnonymousReplyWhoseParentWentMeanwhileComesBackWithAMessage(_ gone: GoneParent) throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        _ = try app.client().register("latecomer")
        let author = try app.reader("author")
        let parent = try #require(commentID(in: try author.postComment(slug, "Soon out of sight.")["Location"]))
        let reader = app.client()
        let text = "An answer to a comment that will not be there any more."
        #expect(try reader.reply(to: parent, on: slug, text)["Location"] == "/login")
        switch gone {
        case .hidden: #expect(try app.moderator().hideComment(parent, on: slug).status == 303)
        case .deleted, .deletedThenAnotherPosted: #expect(try author.deleteComment(parent).status == 303)
        }
        var newcomer: Int?
        if gone == .deletedThenAnotherPosted {
            newcomer = commentID(
                in: try app.reader("bystander").postComment(slug, "An unrelated new comment.")["Location"])
        }
        let before = try app.frontPageCommentCount(of: slug)
        let login = try reader.login("latecomer")
        #expect(login.status != 303, "not posted: \(login.status) \(login["Location"] ?? "")")
        #expect(
            mainCommentForm(in: login.text).flatMap { bodyTextarea(in: $0.html) } == text,
            "the text is back in the form")
        #expect(login.text.contains("role=\"alert\"") || login.text.contains("role=\"status\""), "with a message")
        #expect(try app.frontPageCommentCount(of: slug) == before, "nothing posted")
        let page = try app.client().get("/articles/\(slug)").text
        #expect(!page.contains(text))
        if let newcomer {
            #expect(
                !(commentElement(newcomer, in: page)?.contains("data-parent") ?? false),
                "the new comment \(newcomer) (the deleted parent was \(parent)) got no reply")
        }
        #expect(try reader.get("/account").status == 200, "the login itself stands")
    }

    // MARK: Editing

    @Test func theAuthorEditsWithinFifteenMinutesAndTheCommentShowsEdited() throws {
        let time = TestClock()
        let app = try TestApp(server: false) { $0.clock = time.clock }
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let id = try #require(commentID(in: try author.postComment(slug, "Teh first version.")["Location"]))
        let other = try app.reader("other")
        let article = try author.get("/articles/\(slug)").text
        #expect(try #require(commentElement(id, in: article)).contains("href=\"/comments/\(id)/edit\""))
        #expect(!(try #require(commentElement(id, in: article))).contains("data-edited"))
        #expect(!(try other.get("/articles/\(slug)").text.contains("href=\"/comments/\(id)/edit\"")))

        time.advance(14 * 60)
        let form = try author.get("/comments/\(id)/edit")
        #expect(form.status == 200)
        #expect(bodyTextarea(in: form.text) == "Teh first version.")
        #expect(form.text.contains("<form method=\"post\" action=\"/comments/\(id)/edit\""))

        // Not the author: 403 to see the form and to save; anonymous: to the login page; unknown: 404.
        #expect(try other.get("/comments/\(id)/edit").status == 403)
        #expect(try other.editComment(id, "Vandalised.").status == 403)
        let anonymous = try app.client().get("/comments/\(id)/edit")
        #expect(anonymous.status == 303)
        #expect(anonymous["Location"]?.hasPrefix("/login") == true)
        #expect(try author.get("/comments/999999/edit").status == 404)

        let saved = try author.editComment(id, "The first version, corrected.")
        #expect(saved.status == 303)
        #expect(saved["Location"] == "/articles/\(slug)#comment-\(id)")
        let page = try author.land(saved).text
        let element = try #require(commentElement(id, in: page))
        #expect(element.contains("<p>The first version, corrected.</p>"))
        #expect(!page.contains("Teh first version."))
        #expect(element.contains("data-edited"))
        #expect(element.contains("(edited)"))
        #expect(try app.client().get("/articles/\(slug)").text.contains("(edited)"), "everyone sees it was edited")
        #expect(try app.frontPageCommentCount(of: slug) == 1, "an edit is not another comment")
    }

    @Test func anEditFollowsThePostingRulesAnd422KeepsTheText() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let id = try #require(commentID(in: try author.postComment(slug, "Original words.")["Location"]))
        let empty = try author.editComment(id, " \r\n\t ")
        #expect(empty.status == 422)
        #expect(empty.text.contains("Your comment is empty"))
        let long = String(repeating: "é", count: 2001)
        let tooLong = try author.editComment(id, long)
        #expect(tooLong.status == 422)
        #expect(tooLong.text.contains("the limit is 2000"))
        #expect(bodyTextarea(in: tooLong.text) == long, "the text is kept")
        let page = try app.client().get("/articles/\(slug)").text
        #expect(page.contains("<p>Original words.</p>"))
        #expect(!page.contains("(edited)"))
        // Normalised as when posting: CRLF and surrounding whitespace do not count.
        #expect(try author.editComment(id, "  " + String(repeating: "é", count: 1998) + "\r\n!  ").status == 303)
    }

    @Test func anEditAfterSixteenMinutesIs403SayingTheTimeIsUp() throws {
        let time = TestClock()
        let app = try TestApp(server: false) { $0.clock = time.clock }
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let id = try #require(commentID(in: try author.postComment(slug, "Set in stone soon.")["Location"]))
        time.advance(16 * 60)
        let form = try author.get("/comments/\(id)/edit")
        #expect(form.status == 403)
        #expect(form.text.contains("time is up"))
        let save = try author.editComment(id, "Too late to change.")
        #expect(save.status == 403)
        #expect(save.text.contains("time is up"))
        let page = try author.get("/articles/\(slug)").text
        #expect(page.contains("<p>Set in stone soon.</p>"))
        #expect(!page.contains("Too late to change."))
        #expect(!page.contains("(edited)"))
        #expect(!page.contains("href=\"/comments/\(id)/edit\""), "no Edit link once the time is up")
    }

    /// The edit form was opened while logged in; the session expired before Save. The save is
    /// captured like any POST, the login page says what is pending, and it is saved after login.
    @Test func anEditWhoseSessionExpiredIsSavedAfterLogin() throws {
        let time = TestClock()
        let app = try TestApp(server: false) {
            $0.clock = time.clock
            $0.accounts.sessionIdleSeconds = 120
        }
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let id = try #require(commentID(in: try author.postComment(slug, "Before the edit.")["Location"]))
        let form = try author.get("/comments/\(id)/edit")
        let token = try #require(hiddenField("csrf_token", in: form.text))
        time.advance(3 * 60)  // past the session's idle limit, well within the edit window

        let captured = try author.post(
            "/comments/\(id)/edit", form: [("csrf_token", token), ("body", "After the edit, saved after logging in.")])
        #expect(captured.status == 303)
        #expect(captured["Location"] == "/login")
        let login = try author.get("/login").text
        #expect(login.contains("After the edit, saved after logging in"), "the login page shows the start of its text")
        #expect(try author.get("/register").text.contains("After the edit, saved after logging in"))
        let loggedIn = try author.login("author")
        #expect(loggedIn.status == 303)
        #expect(loggedIn["Location"] == "/articles/\(slug)#comment-\(id)")
        let page = try author.land(loggedIn).text
        let element = try #require(commentElement(id, in: page))
        #expect(element.contains("<p>After the edit, saved after logging in.</p>"))
        #expect(element.contains("data-edited"))
        #expect(!page.contains("Before the edit."))
    }

    // MARK: Pages of comments

    /// 500 conversations written straight into the store, then everything else through HTTP: pages
    /// of 100, oldest first, links both ways, the 501st posted and visible after its redirect,
    /// redirects after replying and editing going to the page that holds the comment.
    @Test func conversationsArePagedByAHundredAndThe501stIsVisibleAfterItsRedirect() throws {
        let app = try TestApp(server: false) { $0.commentsPerMinute = 10_000 }
        let slug = try app.firstSlug()
        let crowd = try app.reader("crowd")
        let ids = try app.addTopLevelComments(500, on: slug, by: "crowd")
        let base = "/articles/\(slug)"

        let first = try app.client().get(base).text
        #expect(topLevelCommentIDs(in: first) == Array(ids[0..<100]), "the first hundred, oldest first")
        #expect(first.contains("href=\"\(base)?comments=2#comments\" rel=\"next\""))
        #expect(!first.contains("rel=\"prev\""))
        let second = try app.client().get(base + "?comments=2").text
        #expect(topLevelCommentIDs(in: second) == Array(ids[100..<200]))
        #expect(second.contains("href=\"\(base)#comments\" rel=\"prev\""), "page 1 has no query")
        #expect(second.contains("href=\"\(base)?comments=3#comments\" rel=\"next\""))
        let fifth = try app.client().get(base + "?comments=5").text
        #expect(topLevelCommentIDs(in: fifth) == Array(ids[400..<500]))
        #expect(fifth.contains("href=\"\(base)?comments=4#comments\" rel=\"prev\""))
        #expect(!fifth.contains("rel=\"next\""), "500 conversations make five pages")
        #expect(try app.client().get(base + "?comments=6").status == 404)
        #expect(try app.client().get(base + "?comments=0").status == 400)
        #expect(try app.client().get(base + "?comments=two").status == 400)

        // The 501st, posted through the form: its redirect names page 6, where it is visible.
        let poster = try app.reader("poster")
        let posted = try poster.postComment(slug, "The five hundred and first.")
        #expect(posted.status == 303)
        let new = try #require(commentID(in: posted["Location"]))
        #expect(posted["Location"] == "\(base)?comments=6#comment-\(new)")
        let landed = try poster.land(posted)
        #expect(landed.status == 200)
        #expect(topLevelCommentIDs(in: landed.text) == [new])
        #expect(try #require(commentElement(new, in: landed.text)).contains("<p>The five hundred and first.</p>"))
        #expect(landed.text.contains("href=\"\(base)?comments=5#comments\" rel=\"prev\""))
        #expect(!landed.text.contains("rel=\"next\""))

        // A reply goes to the page of its conversation: page 1 (no query) and page 3.
        let early = try poster.reply(to: ids[0], on: slug, "Late answer to the very first.")
        let earlyID = try #require(commentID(in: early["Location"]))
        #expect(early["Location"] == "\(base)#comment-\(earlyID)")
        let firstAgain = try poster.land(early).text
        #expect(try #require(commentElement(ids[0], in: firstAgain)).contains("id=\"comment-\(earlyID)\""))
        #expect(topLevelCommentIDs(in: firstAgain).count == 100, "a reply is not a conversation of its own")
        let middle = try poster.reply(to: ids[250], on: slug, "Answer on the third page.", commentsPage: 3)
        let middleID = try #require(commentID(in: middle["Location"]))
        #expect(middle["Location"] == "\(base)?comments=3#comment-\(middleID)")
        #expect(try poster.land(middle).text.contains("id=\"comment-\(middleID)\""))
        // The conversations' author finds both in their replies, each linked to the page holding it.
        let replies = try crowd.get("/me/replies").text
        #expect(replies.contains("href=\"\(base)?comments=3#comment-\(middleID)\""))
        #expect(replies.contains("href=\"\(base)#comment-\(earlyID)\""))

        // An edit goes back to the page holding the comment.
        let edited = try crowd.editComment(ids[150], "Number 151, edited.")
        #expect(edited["Location"] == "\(base)?comments=2#comment-\(ids[150])")
        #expect(try crowd.land(edited).text.contains("<p>Number 151, edited.</p>"))

        // The count is the total, replies included.
        #expect(try app.frontPageCommentCount(of: slug) == 503)
    }

    // MARK: Reply notifications

    @Test func theUnreadCountShowsOnlyWhileThereAreUnreadRepliesAndNotForSelfReplies() throws {
        let app = try TestApp(server: false) { $0.commentsPerMinute = 100 }
        let slug = try app.firstSlug()
        let asker = try app.reader("asker")
        let answerer = try app.reader("answerer")
        let question = try #require(commentID(in: try asker.postComment(slug, "A question.")["Location"]))
        #expect(!(try asker.get("/").text.contains("data-unread-count")), "nothing unread: no count")

        // Answering oneself does not count.
        let selfReply = try #require(
            commentID(in: try asker.reply(to: question, on: slug, "Talking to myself.")["Location"]))
        #expect(!(try asker.get("/").text.contains("data-unread-count")))

        let firstAnswer = try #require(
            commentID(in: try answerer.reply(to: question, on: slug, "First answer.")["Location"]))
        #expect(try asker.get("/").text.contains("data-unread-count=\"1\""))
        #expect(try asker.get("/articles/\(slug)").text.contains("data-unread-count=\"1\""), "on every page's header")
        #expect(!(try answerer.get("/").text.contains("data-unread-count")))
        _ = try answerer.reply(to: selfReply, on: slug, "Second answer, to the self-reply.")
        #expect(try asker.get("/").text.contains("data-unread-count=\"2\""))
        // The asker answering the answerer counts for the answerer, not for the asker.
        _ = try asker.reply(to: firstAnswer, on: slug, "Thanks.")
        #expect(try asker.get("/").text.contains("data-unread-count=\"2\""))
        #expect(try answerer.get("/").text.contains("data-unread-count=\"1\""))

        let replies = try asker.get("/me/replies")
        #expect(replies.status == 200)
        let text = replies.text
        #expect(occurrences(of: "class=\"reply-item", in: text) == 2, "replies by others only")
        #expect(!text.contains("Talking to myself."))
        #expect(!text.contains("<p>Thanks.</p>"))
        let second = try #require(text.range(of: "Second answer, to the self-reply."))
        let first = try #require(text.range(of: "First answer."))
        #expect(second.lowerBound < first.lowerBound, "newest first")
        #expect(occurrences(of: " data-unread>", in: text) == 2)
        #expect(text.contains("href=\"/articles/\(slug)#comment-\(firstAnswer)\""), "each links to its place")

        // Opened: read. The count is gone, and the list no longer marks them new.
        #expect(!(try asker.get("/").text.contains("data-unread-count")))
        #expect(!(try asker.get("/articles/\(slug)").text.contains("data-unread-count")))
        let again = try asker.get("/me/replies").text
        #expect(occurrences(of: "class=\"reply-item", in: again) == 2)
        #expect(occurrences(of: " data-unread>", in: again) == 0)
        #expect(try answerer.get("/").text.contains("data-unread-count=\"1\""), "the other reader's stays")

        let anonymous = try app.client().get("/me/replies")
        #expect(anonymous.status == 303)
        #expect(anonymous["Location"]?.hasPrefix("/login") == true)
    }

    @Test func repliesArePaginatedNewestFirst() throws {
        let app = try TestApp(server: false) { $0.commentsPerMinute = 100 }
        let slug = try app.firstSlug()
        let asker = try app.reader("asker")
        let answerer = try app.reader("answerer")
        let question = try #require(commentID(in: try asker.postComment(slug, "Popular question.")["Location"]))
        for index in 1...21 {
            #expect(try answerer.postComment(slug, "Answer number \(index).", parent: String(question)).status == 303)
        }
        #expect(try asker.get("/").text.contains("data-unread-count=\"21\""))
        let first = try asker.get("/me/replies").text
        #expect(occurrences(of: "class=\"reply-item", in: first) == 20)
        let newest = try #require(first.range(of: "Answer number 21."))
        let older = try #require(first.range(of: "Answer number 2."))
        #expect(newest.lowerBound < older.lowerBound)
        #expect(!first.contains("Answer number 1."))
        #expect(first.contains("href=\"/me/replies?page=2\" rel=\"next\""))
        let second = try asker.get("/me/replies?page=2").text
        #expect(occurrences(of: "class=\"reply-item", in: second) == 1)
        #expect(second.contains("Answer number 1."))
        #expect(second.contains("href=\"/me/replies\" rel=\"prev\""))
        #expect(!second.contains("rel=\"next\""))
        #expect(try asker.get("/me/replies?page=3").status == 404)
        #expect(!(try asker.get("/").text.contains("data-unread-count")))
    }

    // MARK: Nothing typed is lost

    /// A comment captured 16 minutes before the login: not posted; the reader lands on the article's
    /// form with the text back and a message, and the form as rendered then posts it.
    @Test func aSixteenMinuteOldCommentIntentGivesItsTextBackInsteadOfBeingPosted() throws {
        let time = TestClock()
        let app = try TestApp(server: false) { $0.clock = time.clock }
        let slug = try app.firstSlug()
        _ = try app.client().register("slow")
        let reader = app.client()
        let text = "Written long ago, while the kettle boiled and the login page waited."
        #expect(try reader.postComment(slug, text)["Location"] == "/login")
        time.advance(16 * 60)
        let login = try reader.login("slow")
        #expect(login.status == 200, "\(login.status) \(login["Location"] ?? "")")
        #expect(login.text.contains("has not been posted yet — it waited too long"))
        #expect(login.text.contains("role=\"status\">Your comment has not been posted yet"))
        let main = try #require(mainCommentForm(in: login.text))
        #expect(bodyTextarea(in: main.html) == text, "the text is back in the article's form")
        #expect(main.form.value("parent") == nil)
        #expect(reader.cookies["herald_intent"] == nil)
        #expect(try reader.get("/account").status == 200, "logged in")
        #expect(!(try app.client().get("/articles/\(slug)").text.contains(text)), "not posted")
        #expect(try app.frontPageCommentCount(of: slug) == 0)

        // The form as it came back works.
        let posted = try reader.post(main.form.action, form: main.form.hidden + [("body", text)])
        #expect(posted.status == 303)
        #expect(commentID(in: posted["Location"]) != nil)
        #expect(occurrences(of: text, in: try app.client().get("/articles/\(slug)").text) == 1)
    }

    @Test func aFourteenMinuteOldCommentIntentIsStillPosted() throws {
        let time = TestClock()
        let app = try TestApp(server: false) { $0.clock = time.clock }
        let slug = try app.firstSlug()
        _ = try app.client().register("timely")
        let reader = app.client()
        _ = try reader.postComment(slug, "Just in time.")
        time.advance(14 * 60)
        let login = try reader.login("timely")
        #expect(login["Location"]?.hasPrefix("/articles/\(slug)#comment-") == true)
        #expect(occurrences(of: "Just in time.", in: try app.client().get("/articles/\(slug)").text) == 1)
    }

    /// A reply captured 16 minutes before the login: its text comes back in the main form, with its
    /// parent as a hidden field, so posting it again still answers the same comment.
    @Test func aStaleReplyIntentGivesItsTextBackWithItsParent() throws {
        let time = TestClock()
        let app = try TestApp(server: false) { $0.clock = time.clock }
        let slug = try app.firstSlug()
        _ = try app.client().register("slow")
        let author = try app.reader("author")
        let parent = try #require(commentID(in: try author.postComment(slug, "Reply when you can.")["Location"]))
        let reader = app.client()
        let text = "I could, but the login took me far too long."
        #expect(try reader.reply(to: parent, on: slug, text)["Location"] == "/login")
        time.advance(16 * 60)
        let login = try reader.login("slow")
        #expect(login.status == 200, "\(login.status) \(login["Location"] ?? "")")
        #expect(login.text.contains("has not been posted yet — it waited too long"))
        let main = try #require(mainCommentForm(in: login.text))
        #expect(bodyTextarea(in: main.html) == text)
        #expect(main.form.value("parent") == String(parent), "the hidden parent is in the main form")
        #expect(try app.frontPageCommentCount(of: slug) == 1, "not posted")

        let posted = try reader.post(main.form.action, form: main.form.hidden + [("body", text)])
        #expect(posted.status == 303)
        let reply = try #require(commentID(in: posted["Location"]))
        let page = try reader.land(posted).text
        #expect(commentAttribute("data-parent", of: reply, in: page) == String(parent))
    }

    /// An edit captured 16 minutes before the login is not saved; its text comes back with a message.
    @Test func aStaleEditIntentGivesItsTextBack() throws {
        let time = TestClock()
        let app = try TestApp(server: false) { $0.clock = time.clock }
        let slug = try app.firstSlug()
        let author = try app.reader("author")
        let id = try #require(commentID(in: try author.postComment(slug, "The version that stays.")["Location"]))
        let browser = app.client()  // the author's other browser, not logged in
        let text = "The improved version, which waited too long."
        #expect(try browser.editComment(id, text)["Location"] == "/login")
        time.advance(16 * 60)
        let login = try browser.login("author")
        #expect(login.status == 200, "\(login.status) \(login["Location"] ?? "")")
        #expect(login.text.contains("has not been saved yet — it waited too long"))
        // The edit window closed with the intent's 15 minutes, so the text comes back to copy.
        #expect(login.text.contains(">\(text)</textarea>"), "the text is back in a textarea")
        let page = try app.client().get("/articles/\(slug)").text
        #expect(page.contains("<p>The version that stays.</p>"))
        #expect(!page.contains(text))
        #expect(!page.contains("(edited)"))
    }

    /// A performed reply intent, its cookie copied and replayed at another login: nothing happens,
    /// fresh or stale (no second post, no text given back).
    @Test func aReplayedReplyIntentCookieDoesNothing() throws {
        let time = TestClock()
        let app = try TestApp(server: false) {
            $0.clock = time.clock
            $0.commentsPerMinute = 100
        }
        let slug = try app.firstSlug()
        _ = try app.client().register("original")
        let author = try app.reader("author")
        let parent = try #require(commentID(in: try author.postComment(slug, "Answer once.")["Location"]))
        let reader = app.client()
        let text = "Only once, wherever this cookie is copied to."
        _ = try reader.reply(to: parent, on: slug, text)
        let copied = try #require(reader.cookies["herald_intent"])
        #expect(try reader.login("original").status == 303)
        #expect(occurrences(of: text, in: try app.client().get("/articles/\(slug)").text) == 1)

        let replayer = app.client()
        replayer.setCookie("herald_intent", copied)
        let replayed = try replayer.login("original")
        #expect(replayed.status == 303)
        #expect(replayed["Location"] == "/")
        #expect(replayer.cookies["herald_intent"] == nil)
        #expect(occurrences(of: text, in: try app.client().get("/articles/\(slug)").text) == 1)

        // A stale intent given back once is not given back (or posted) again.
        let slow = app.client()
        let staleText = "Given back once, and never again."
        _ = try slow.postComment(slug, staleText)
        let staleCopy = try #require(slow.cookies["herald_intent"])
        time.advance(16 * 60)
        #expect(try slow.login("original").text.contains(staleText))
        let again = app.client()
        again.setCookie("herald_intent", staleCopy)
        let login = try again.login("original")
        #expect(login["Location"] == "/")
        #expect(!login.text.contains(staleText))
        #expect(!(try app.client().get("/articles/\(slug)").text.contains(staleText)))
    }

    enum VoidIntent: String, CaseIterable { case tampered, foreignKey, dayOld }

    /// A stale intent that is not authentic (a changed byte, another site's key) or older than the
    /// cookie's day does nothing at all: no post, no text given back, and the login succeeds.
    @Test(arguments: VoidIntent.allCases)
    func aVoidCommentIntentDoesNothingAtAll(_ kind: VoidIntent) throws {
        let time = TestClock()
        let app = try TestApp(server: false) { $0.clock = time.clock }
        let slug = try app.firstSlug()
        _ = try app.client().register("careful")
        let reader = app.client()
        let text = "Text in a cookie that cannot be trusted."
        _ = try reader.postComment(slug, text)
        let original = try #require(reader.cookies["herald_intent"])
        switch kind {
        case .tampered:
            var bytes = Array(original.utf8)
            let index = bytes.count / 2
            bytes[index] = bytes[index] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
            reader.setCookie("herald_intent", String(decoding: bytes, as: UTF8.self))
            time.advance(16 * 60)
        case .foreignKey:
            let issued = time.clock.now() - 16 * 60
            let intent = Intent(
                action: "comment", parameters: ["slug": slug], fields: [["body", text]],
                returnPath: "/articles/\(slug)", issuedAt: issued, expiresAt: issued + 15 * 60, id: "forged-id")
            let foreign = IntentCodec(keys: SecretKeys(current: "some-other-site-secret"))
            reader.setCookie("herald_intent", try #require(try foreign.encode(intent)))
        case .dayOld:
            time.advance(86_400 + 60)
        }
        let login = try reader.login("careful")
        #expect(login.status == 303)
        #expect(login["Location"] == "/")
        #expect(!login.text.contains(text))
        #expect(reader.cookies["herald_intent"] == nil, "cleared")
        #expect(!(try reader.land(login).text.contains(text)))
        #expect(!(try app.client().get("/articles/\(slug)").text.contains(text)), "nothing posted")
    }
}
