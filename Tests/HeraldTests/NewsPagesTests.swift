import Foundation
import HTTP
import TestSupport
import Testing

@testable import Herald

@Suite struct NewsPagesTests {
    @Test func healthz() throws {
        let app = try TestApp(server: false)
        let response = try app.client().get("/healthz")
        #expect(response.status == 200)
        #expect(response.text == "ok")
    }

    @Test func demoContentIsWhatTheAppLoads() throws {
        let loadedByTheApp = try TestApp(server: false, demo: false) { $0.loadDemoContent = true }
        let importedByTheTest = try TestApp(server: false)
        // When each was stored differs (each app imports at its own "now"); nothing else may.
        func stored(_ app: TestApp) throws -> [Article] {
            try app.app.articles.page(1, size: 1000).articles.map { article in
                var article = article
                article.updatedAt = 0
                return article
            }
        }
        let loaded = try stored(loadedByTheApp)
        #expect(loaded.count == 56)
        #expect(loaded == (try stored(importedByTheTest)))
    }

    @Test func frontPageListsNewestFirstWithLikeCounts() throws {
        let app = try TestApp(server: false)
        let response = try app.client().get("/")
        #expect(response.status == 200)
        #expect(response["Content-Type"] == "text/html; charset=utf-8")
        let html = response.text
        #expect(html.contains("<title>Latest news — Herald</title>"))
        #expect(occurrences(of: "class=\"story\"", in: html) == ArticlePages.pageSize)
        // A count of zero is not shown (#32), but every card keeps it in data-like-count.
        #expect(occurrences(of: "data-like-count=\"0\"", in: html) == ArticlePages.pageSize)
        let dates = matches(of: #"<time datetime="([^"]+)""#, in: html)
        #expect(dates.count == ArticlePages.pageSize)
        #expect(Set(dates).count > 1, "the demo articles have different dates")
        #expect(dates == dates.sorted(by: >), "newest first")
        #expect(html.contains("href=\"/?page=2\""))
        #expect(!html.contains("Newer"))
    }

    @Test func paginationEdges() throws {
        let app = try TestApp(server: false)
        let client = app.client()
        let second = try client.get("/?page=2")
        #expect(second.status == 200)
        #expect(second.text.contains("href=\"/\""))
        // 56 demo articles: page 3 is the last (16 articles), page 4 is past the end.
        let third = try client.get("/?page=3")
        #expect(third.status == 200)
        #expect(occurrences(of: "class=\"story\"", in: third.text) == 16)
        #expect(!third.text.contains("Older"))
        #expect(try client.get("/?page=4").status == 404)
        #expect(try client.get("/?page=999999999").status == 404, "beyond the archive")
        #expect(try client.get("/?page=99999999999999999999999").status == 404, "past the last, however large")
        for bad in ["0", "00", "-1", "abc", "1.5", "", "+2", "%20", "2x", "0x10", "%EF%BC%91"] {
            #expect(try client.get("/?page=\(bad)").status == 400, "page=\(bad)")
        }
        #expect(try client.get("/?page=01").status == 200)
    }

    @Test func anonymousFrontPageIsFreshAfterAWrite() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let anonymous = app.client()
        #expect(!(try anonymous.get("/").text.contains("data-like-count=\"1\"")))
        let reader = app.client()
        _ = try reader.register("freshness")
        #expect(try reader.submitLikeForm(slug).status == 303)
        #expect(try anonymous.get("/").text.contains("data-like-count=\"1\""), "not served from a stale cache")
    }

    @Test func emptySiteShowsAnEmptyFrontPage() throws {
        let app = try TestApp(server: false, demo: false)
        let response = try app.client().get("/")
        #expect(response.status == 200)
        #expect(response.text.contains("There are no articles yet"))
        #expect(try app.client().get("/?page=2").status == 404)
    }

    @Test func articlePage() throws {
        let app = try TestApp(server: false)
        let (articles, _) = try app.app.articles.page(1, size: 1)
        let article = try #require(articles.first)
        let response = try app.client().get("/articles/\(article.slug)")
        #expect(response.status == 200)
        let html = response.text
        #expect(html.contains("data-like-count=\"0\""))
        #expect(occurrences(of: "action=\"/articles/\(article.slug)/like\"", in: html) == 1)
        #expect(html.contains("method=\"post\""))
        #expect(html.contains("<button type=\"submit\""))
        #expect(html.contains("href=\"/\""))
        #expect(html.contains("<time datetime=\""))
        let full = try #require(try app.app.articles.article(slug: article.slug))
        #expect(occurrences(of: "<p>", in: html) >= full.paragraphs.count)
    }

    @Test func otherMethodsAre405WithAllow() throws {
        let app = try TestApp(server: false)
        let slug = try app.firstSlug()
        let client = app.client()
        for (method, path, allow) in [
            ("DELETE", "/articles/\(slug)", "GET, HEAD"), ("PUT", "/", "GET, HEAD"),
            ("OPTIONS", "/login", "GET, POST, HEAD"),
            ("GET", "/articles/\(slug)/like", "POST"), ("BREW", "/", "GET, HEAD"),
        ] {
            let response = try client.request(method, path)
            #expect(response.status == 405, "\(method) \(path)")
            #expect(response["Allow"] == allow, "\(method) \(path)")
        }
    }

    @Test func unknownArticleIsARealNotFoundPage() throws {
        let app = try TestApp(server: false)
        let response = try app.client().get("/articles/no-such-article")
        #expect(response.status == 404)
        #expect(response.text.contains("<main"))
        #expect(response.text.contains("We could not find that page"))
    }

    @Test func textFromTheDatabaseIsEscaped() throws {
        let app = try TestApp(server: false, demo: false)
        _ = try app.app.articles.importArticles(
            [
                IncomingArticle(
                    sourceID: "x1", title: "<script>alert(\"x\")</script> & 'friends'", summary: "<b>bold</b>",
                    body: "<img src=x onerror=alert(1)>\n\nSecond & last", author: "A <b>", section: "world",
                    publishedAt: 1_700_000_000)
            ], now: app.app.configuration.clock.now())
        let client = app.client()
        let front = try client.get("/").text
        #expect(!front.contains("<script>alert"))
        #expect(front.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;friends&#39;"))
        let slug = try #require(try app.app.articles.page(1, size: 1).articles.first?.slug)
        let page = try client.get("/articles/\(slug)").text
        #expect(!page.contains("<img src=x"))
        #expect(page.contains("&lt;img src=x onerror=alert(1)&gt;"))
        #expect(!page.contains("<b>bold</b>"))
    }

    @Test func reimportedTextShowsAtOnce() throws {
        let app = try TestApp(server: false, demo: false)
        func importBody(_ body: String) throws {
            _ = try app.app.articles.importArticles(
                [
                    IncomingArticle(
                        sourceID: "same", title: "Changing story", summary: "s", body: body, author: "A",
                        section: "world", publishedAt: 1_700_000_000)
                ], now: app.app.configuration.clock.now())
        }
        try importBody("First version of the story.")
        let client = app.client()
        #expect(try client.get("/articles/changing-story").text.contains("<p>First version of the story.</p>"))
        try importBody("Second version & <more>.")
        let page = try client.get("/articles/changing-story").text
        #expect(page.contains("<p>Second version &amp; &lt;more&gt;.</p>"))
        #expect(!page.contains("First version"))
    }

    @Test func atomFeedParsesBack() throws {
        let app = try TestApp(server: false)
        let response = try app.client().get("/feed.atom")
        #expect(response.status == 200)
        #expect(response["Content-Type"] == "application/atom+xml; charset=utf-8")
        let entries = try FeedParser.parse(response.body, name: "feed.atom")
        #expect(entries.count == FeedController.entryCount)
        let first = try #require(entries.first)
        // No base URL, on loopback: links to where the app listens.
        #expect(first.sourceID.hasPrefix("http://\(TestApp.inProcessHost)/articles/"))
        let newest = try #require(try app.app.articles.newest(limit: 1, now: .max).first)
        #expect(first.title == newest.title)
        #expect(first.body == newest.paragraphs.joined(separator: "\n\n"))
        #expect(first.publishedAt == newest.publishedAt)
    }

    @Test func forgedHostCannotInjectIntoTheFeed() throws {
        let app = try TestApp(server: false)
        for host in ["evil\"><x", "news.example"] {
            let feed = try app.client().get("/feed.atom", headers: [("Host", host)]).text
            #expect(!feed.contains("evil") && !feed.contains("news.example"), "\(host)")
            #expect(feed.contains("http://\(TestApp.inProcessHost)/articles/"))
        }
    }

    @Test func staticStylesheetIsServed() throws {
        let app = try TestApp(server: false, demo: false)
        let response = try app.client().get("/static/css/herald.css", headers: [("Accept-Encoding", "gzip")])
        #expect(response.status == 200)
        #expect(response["Content-Encoding"] == "gzip")
        #expect(response["Content-Type"] == "text/css; charset=utf-8")
    }

    @Test func pagesAreGzippedWhenAccepted() throws {
        let app = try TestApp(server: false)
        let response = try app.client().get("/", headers: [("Accept-Encoding", "gzip")])
        #expect(response["Content-Encoding"] == "gzip")
        let html = String(decoding: try #require(Gzip.decompress(response.body)), as: UTF8.self)
        #expect(html.contains("data-like-count"))
    }
}

func occurrences(of needle: String, in haystack: String) -> Int {
    haystack.components(separatedBy: needle).count - 1
}

func matches(of pattern: String, in text: String) -> [String] {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    let range = NSRange(text.startIndex..., in: text)
    return regex.matches(in: text, range: range).compactMap { match in
        Range(match.range(at: 1), in: text).map { String(text[$0]) }
    }
}
