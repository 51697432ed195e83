import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// Issue #32, items 4 and 5: the reading pages as a reader meets them — cards without zero counts,
/// the reading time, "Comments (2)", relative comment times, a delete that asks first, a like that
/// lands back at its button, and pages that speak plainly when something is missing or refused.
@Suite struct ReadingPagesTests {
    // MARK: Cards

    @Test func cardsSayNothingOfCountsThatAreZero() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = try app.reader("counter")
        let before = try app.client().get("/").text
        #expect(!before.contains("0 likes"))
        #expect(!before.contains("0 comments"))
        // The counts stay machine-readable on every card.
        #expect(occurrences(of: "data-like-count=\"0\"", in: before) == ArticlePages.pageSize)
        #expect(occurrences(of: "data-comment-count=\"0\"", in: before) == ArticlePages.pageSize)

        #expect(try reader.submitLikeForm(slug).status == 303)
        _ = try reader.comment(on: slug, "A first word.")
        let after = try app.client().get("/").text
        #expect(after.contains("<span class=\"like-count\">1 like</span>"))
        #expect(after.contains("<span class=\"comment-count\">1 comment</span>"))
        #expect(!after.contains("0 likes"))
    }

    // MARK: The article

    @Test func theArticleSaysHowLongItTakesToRead() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let article = try #require(try app.app.articles.article(slug: slug))
        let minutes = ReadingTime.minutes(of: article.body)
        let page = try app.client().get("/articles/\(slug)").text
        #expect(page.contains("<span class=\"reading-time\" data-reading-time>\(minutes) min read</span>"))
    }

    @Test func readingTimeCountsWordsAndUnspacedScripts() {
        #expect(ReadingTime.minutes(of: "") == 1)
        #expect(ReadingTime.minutes(of: Array(repeating: "word", count: 230).joined(separator: " ")) == 1)
        #expect(ReadingTime.minutes(of: Array(repeating: "word", count: 231).joined(separator: "\n\n")) == 2)
        // 920 ideographs read like 460 words: two minutes.
        #expect(ReadingTime.minutes(of: String(repeating: "新闻", count: 460)) == 2)
        #expect(ReadingTime.text(of: "short") == "1 min read")
    }

    @Test func theCommentsHeadingCountsTheComments() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        #expect(try app.client().get("/articles/\(slug)").text.contains(">Comments (0)</h2>"))
        let reader = try app.reader("talker")
        let first = try reader.comment(on: slug, "One.")
        _ = try reader.reply(to: first, on: slug, "Two, a reply.")
        let page = try app.client().get("/articles/\(slug)").text
        #expect(page.contains("<h2 id=\"comments-heading\" data-comment-total=\"2\">Comments (2)</h2>"))
    }

    @Test func commentTimesAreRelativeWithTheExactTimeInTheTitle() throws {
        let time = TestClock()
        let app = try TestApp(server: false) { $0.clock = time.clock }
        let slug = try app.firstSlug()
        let reader = try app.reader("timely")
        let id = try reader.comment(on: slug, "Timed.")
        let exact = DateText.dayAndTime(time.clock.now()) + " UTC"
        var element = try #require(commentElement(id, in: try reader.get("/articles/\(slug)").text))
        #expect(element.contains("title=\"\(exact)\">just now</time>"))
        time.advance(3 * 3600 + 59)
        element = try #require(commentElement(id, in: try app.client().get("/articles/\(slug)").text))
        #expect(element.contains("title=\"\(exact)\">3 hours ago</time>"))
    }

    @Test func relativeTimesInWords() {
        let now = 1_800_000_000
        #expect(DateText.relative(now + 30, now: now) == "just now")
        #expect(DateText.relative(now - 59, now: now) == "just now")
        #expect(DateText.relative(now - 60, now: now) == "1 minute ago")
        #expect(DateText.relative(now - 3599, now: now) == "59 minutes ago")
        #expect(DateText.relative(now - 3600, now: now) == "1 hour ago")
        #expect(DateText.relative(now - 86_400, now: now) == "yesterday")
        #expect(DateText.relative(now - 2 * 86_400, now: now) == "2 days ago")
        #expect(DateText.relative(now - 28 * 86_400, now: now) == DateText.long(now - 28 * 86_400))
    }

    @Test func deletingAsksFirstWithoutScript() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let author = try app.reader("second-thoughts")
        let id = try author.comment(on: slug, "Maybe I should not have.")
        let element = try #require(commentElement(id, in: try author.get("/articles/\(slug)").text))
        // The delete form is inside a closed <details>: one click opens the question, the next deletes.
        let details = try #require(firstMatch(#"(<details class="delete">[\s\S]*?</details>)"#, in: element))
        #expect(details.contains("<summary>Delete</summary>"))
        #expect(details.contains("Delete this comment? This cannot be undone."))
        #expect(details.contains("action=\"/comments/\(id)/delete\""))
        #expect(details.contains("<button type=\"submit\" class=\"danger\">Delete comment</button>"))
        #expect(occurrences(of: "action=\"/comments/\(id)/delete\"", in: element) == 1)
        // The actions sit in one row: Reply, Edit, Delete (no report on one's own comment).
        let actions = try #require(firstMatch(#"<div class="comment-actions">([\s\S]*?)</div>"#, in: element))
        let order = ["<details class=\"reply\">", "class=\"action-link\"", "<details class=\"delete\">"].map {
            actions.range(of: $0)?.lowerBound
        }
        #expect(order.allSatisfy { $0 != nil })
        #expect(order.compactMap { $0 } == order.compactMap { $0 }.sorted())
    }

    @Test func moderatorsGetOneMenuPerComment() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let id = try app.reader("writer").comment(on: slug, "Look at me.")
        let element = try #require(commentElement(id, in: try app.moderator().get("/articles/\(slug)").text))
        let menu = try #require(firstMatch(#"(<details class="moderate">[\s\S]*?</details>)"#, in: element))
        #expect(menu.contains("<summary>Moderate</summary>"))
        #expect(menu.contains("action=\"/comments/\(id)/hide\""))
        #expect(occurrences(of: "name=\"note\"", in: element) == 1)
    }

    /// SPEC "Pages, in small ways": the 303 after a like or an unlike may carry `#like`.
    @Test func aLikeWithoutScriptReturnsToTheLikeButton() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let reader = try app.reader("liker")
        #expect(try reader.get("/articles/\(slug)").text.contains("<footer class=\"article-actions\" id=\"like\">"))
        let liked = try reader.submitLikeForm(slug)
        #expect(liked.status == 303)
        #expect(liked["Location"] == "/articles/\(slug)#like")
        let unliked = try reader.submitLikeForm(slug)
        #expect(unliked["Location"] == "/articles/\(slug)#like")
    }

    // MARK: Words

    @Test func aPendingLikeIsNamedOnBothPagesAndItsCancelSaysWhat() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let title = escapeHTML(try #require(try app.app.articles.article(slug: slug)).title)
        let reader = app.client()
        #expect(try reader.submitLikeForm(slug)["Location"] == "/login")
        let login = try reader.get("/login").text
        #expect(login.contains("<p>Log in to like “\(title)”.</p>"))
        #expect(login.contains(">Cancel the like</button>"))
        #expect(!login.contains("Cancel it"))
        let register = try reader.get("/register").text
        #expect(register.contains("<p>Create an account to like “\(title)”.</p>"))
        #expect(register.contains(">Cancel the like</button>"))
        // Its last line offers the login page for the same action.
        #expect(register.contains(">Log in to like “\(title)”</a>"))
    }

    @Test func everyPendingActionHasACancelLabel() throws {
        let catalogs = try TestApp(server: false).app.catalogs
        for name in ResumableActionName.allCases {
            let label = catalogs[.english]["cancel_" + name.messageKey]
            #expect(label.hasPrefix("Cancel "), "\(name)")
            #expect(label.count > "Cancel the".count, "\(name)")
            #expect(catalogs[.traditionalChinese]["cancel_" + name.messageKey].hasPrefix("取消"), "\(name)")
        }
    }

    @Test func aPageThatIsNotThereSaysSoAndOffersAWayOn() throws {
        let app = try TestApp(server: false)
        let response = try app.client().get("/articles/no-such-article")
        #expect(response.status == 404)
        let page = response.text
        #expect(page.contains("<title>We could not find that page — Herald</title>"))
        #expect(page.contains("<h1>We could not find that page</h1>"))
        #expect(page.contains(escapeHTML(ArticleRoutes.noSuchArticle.message)))
        #expect(!page.contains("Not Found"))
        // A way on: a search form and the latest articles.
        #expect(
            page.contains(
                "<form method=\"get\" action=\"/search\" role=\"search\" aria-label=\"Search the articles\" class=\"search-form\">"
            ))
        #expect(page.contains("id=\"not-found-q\" name=\"q\""))
        let latest = try #require(firstMatch(#"<ul class="latest-list">([\s\S]*?)</ul>"#, in: page))
        let newest = try app.app.articles.page(1, size: 5).articles.map(\.slug)
        #expect(matches(of: #"href="/articles/([^"]+)""#, in: latest) == newest)
    }

    @Test func refusalsSpeakPlainly() throws {
        let app = try TestApp(server: false)
        let response = try app.reader("curious").get("/editor")
        #expect(response.status == 403)
        #expect(response.text.contains("<h1>You can’t do that here</h1>"))
        #expect(!response.text.contains("Forbidden"))
        for status in [HTTPStatus.badRequest, .forbidden, .notFound, .methodNotAllowed, .tooManyRequests] {
            let heading = ErrorPage.heading(for: status, messages: app.app.catalogs[.english])
            #expect(heading != status.reason && !heading.contains(status.reason), "\(status)")
        }
        #expect(
            ErrorPage.heading(for: .tooManyRequests, messages: app.app.catalogs[.english]) == "Too many tries for now")
        // Other errors offer the front page, not the 404's search.
        #expect(!response.text.contains("not-found-q"))
        #expect(response.text.contains("<a href=\"/\">Go to the front page</a>"))
    }
}
