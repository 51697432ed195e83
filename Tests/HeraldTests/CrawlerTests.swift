import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// SPEC "Discovery": robots.txt and the sitemaps (issue #20).
@Suite struct CrawlerTests {
    // MARK: robots.txt and sitemaps

    @Test func robotsTxtDisallowsPrivatePagesAndNamesTheSitemap() throws {
        for base in ["https://news.example", nil] {
            let app = try TestApp(server: false, demo: false) { $0.baseURL = base }
            let response = try app.client().get("/robots.txt")
            #expect(response.status == 200)
            #expect(response["Content-Type"]?.hasPrefix("text/plain") == true)
            let lines = response.text.split(whereSeparator: \.isNewline).map {
                $0.trimmingCharacters(in: .whitespaces)
            }
            #expect(lines.first == "User-agent: *")
            for path in ["/login", "/register", "/account", "/editor", "/moderation", "/me/"] {
                #expect(lines.contains("Disallow: \(path)"), "\(path) is not disallowed")
            }
            #expect(!lines.contains("Disallow: /"), "the site itself is open to crawlers")
            #expect(!lines.contains { $0.hasPrefix("Disallow: /articles") })
            let sitemap = lines.filter { $0.lowercased().hasPrefix("sitemap:") }
            #expect(sitemap.count == 1)
            let expected = (base ?? "http://\(TestApp.inProcessHost)") + "/sitemap.xml"
            #expect(sitemap.first == "Sitemap: \(expected)", "\(sitemap)")
        }
    }

    /// `/sitemap.xml` lists the front page, sections and published articles with `<lastmod>`,
    /// never drafts or scheduled ones, as the sitemap schema has it.
    @Test func sitemapListsPublishedArticlesAndSectionsNotDrafts() throws {
        let base = "https://news.example"
        let app = try TestApp(server: false, demo: false) { $0.baseURL = base }
        let now = app.configuration.clock.now()
        let slugs = try app.publish([
            SearchableArticle(title: "World one", body: "x", section: "World News", age: 7_200),
            SearchableArticle(title: "Arts one", body: "x", section: "Arts & Culture", age: 3_600),
            SearchableArticle(title: "No section", body: "x", age: 60),
            SearchableArticle(title: "Imported for tomorrow", body: "x", section: "Tomorrow Desk", age: -86_400),
        ])
        let editor = try app.editor()
        let draft = try editor.newArticle(ArticleForm(title: "Secret draft", section: "Secret Desk", body: "x"))
        let scheduled = try editor.newArticle(
            ArticleForm(
                title: "Secret scheduled", section: "Secret Desk", body: "x", publishAt: iso8601(now + 7_200),
                action: "publish"))
        let hidden = [
            try editor.articleSlug(draft), try editor.articleSlug(scheduled), slugs["Imported for tomorrow"]!,
        ]

        let response = try app.client().get("/sitemap.xml")
        #expect(response.status == 200)
        #expect(response["Content-Type"]?.hasPrefix("application/xml") == true, "\(response["Content-Type"] ?? "")")
        let document = SitemapDocument.parse(response.body)
        let problems = document.schemaProblems(root: "urlset", entry: "url", fields: urlsetFields, base: base)
        #expect(problems.isEmpty, "\(problems)\n\(response.text.prefix(600))")
        let locations = document.locations
        #expect(locations.count == Set(locations).count, "a URL is listed twice")
        var expected: Set<String> = [base + "/", base + "/sections/world-news", base + "/sections/arts-culture"]
        for title in ["World one", "Arts one", "No section"] { expected.insert(base + "/articles/" + slugs[title]!) }
        #expect(Set(locations) == expected, "\(locations)")
        for slug in hidden { #expect(!response.text.contains(slug), "\(slug) is not public") }
        #expect(!response.text.contains("/sections/secret-desk") && !response.text.contains("/sections/tomorrow-desk"))
        // Articles carry their last change; it says when.
        let lastModified = document.lastModified
        let parser = ISO8601DateFormatter()
        for (title, age) in [("World one", 7_200), ("Arts one", 3_600), ("No section", 60)] {
            let loc = base + "/articles/" + slugs[title]!
            let text = try #require(lastModified[loc], "no lastmod for \(title)")
            let date = try #require(parser.date(from: text), "\(text)")
            #expect(Int(date.timeIntervalSince1970) == now - age, "\(title): \(text)")
        }

        // Without a base URL the addresses are still absolute: where the app listens (on loopback).
        let plain = try TestApp(server: false, demo: false)
        try plain.publish([SearchableArticle(title: "Local", body: "x")])
        let local = SitemapDocument.parse(try plain.client().get("/sitemap.xml").body)
        let host = "http://\(TestApp.inProcessHost)"
        #expect(local.schemaProblems(root: "urlset", entry: "url", fields: urlsetFields, base: host).isEmpty)
        #expect(local.locations.count == 2)
    }

    /// Past 50,000 addresses `/sitemap.xml` is a sitemap index of files of at most 50,000 each,
    /// together listing every one. 50,001 articles are put in with one SQL statement.
    @Test func sitemapBecomesAnIndexPast50000URLs() throws {
        let base = "https://news.example"
        let app = try TestApp(server: false, demo: false) { $0.baseURL = base }
        let now = app.configuration.clock.now()
        let clock = ContinuousClock()
        func insert(_ range: ClosedRange<Int>) throws {
            let select = """
                SELECT 'bulk-' || i, 'Bulk ' || i, '', 'body ' || i, 'Desk', \(now - 10) - i, \(now)
                """
            let sql: String
            switch app.app.database.dialect {
            case .sqlite:
                sql = """
                    WITH RECURSIVE n(i) AS (SELECT \(range.lowerBound) UNION ALL SELECT i + 1 FROM n WHERE i < \(range.upperBound))
                    INSERT INTO articles (slug, title, summary, body, author, published_at, updated_at)
                    \(select) FROM n
                    """
            case .postgres:
                sql = """
                    INSERT INTO articles (slug, title, summary, body, author, published_at, updated_at)
                    \(select) FROM generate_series(\(range.lowerBound), \(range.upperBound)) AS i
                    """
            }
            try app.app.database.write { try $0.execute(sql) }
        }
        let inserting = clock.measure { try? insert(1...49_999) }
        #expect(try app.app.articles.publishedCount(now: now) == 49_999, "the insert did not happen")

        // 49,999 articles and the front page: exactly 50,000 addresses, still one file.
        var fetching = clock.now
        let single = try app.client().get("/sitemap.xml")
        let fetchSingle = clock.now - fetching
        #expect(single.status == 200)
        let singleDocument = SitemapDocument.parse(single.body)
        #expect(
            singleDocument.schemaProblems(root: "urlset", entry: "url", fields: urlsetFields, base: base).isEmpty)
        #expect(singleDocument.entries.count == 50_000)

        let insertingMore = clock.measure { try? insert(50_000...50_001) }
        fetching = clock.now
        let index = try app.client().get("/sitemap.xml")
        #expect(index.status == 200)
        let indexDocument = SitemapDocument.parse(index.body)
        let indexProblems = indexDocument.schemaProblems(
            root: "sitemapindex", entry: "sitemap", fields: sitemapIndexFields, base: base)
        #expect(indexProblems.isEmpty, "\(indexProblems)\n\(index.text.prefix(600))")
        let files = indexDocument.locations
        #expect(files.count >= 2, "\(files)")
        var articleLocations: [String] = []
        var homeListed = false
        for file in files {
            let path = String(file.dropFirst(base.count))
            let response = try app.client().get(path)
            #expect(response.status == 200, "\(path)")
            #expect(response["Content-Type"]?.hasPrefix("application/xml") == true)
            let document = SitemapDocument.parse(response.body)
            let problems = document.schemaProblems(root: "urlset", entry: "url", fields: urlsetFields, base: base)
            #expect(problems.isEmpty, "\(path): \(problems.prefix(3))")
            #expect(document.entries.count <= 50_000 && !document.entries.isEmpty, "\(path)")
            for loc in document.locations {
                if loc == base + "/" { homeListed = true } else { articleLocations.append(loc) }
            }
        }
        let fetchIndex = clock.now - fetching
        #expect(homeListed, "the front page is in one of the files")
        #expect(articleLocations.count == 50_001, "\(articleLocations.count) article addresses across the files")
        #expect(Set(articleLocations).count == 50_001, "an article is in two files")
        #expect(try app.client().get("/sitemaps/articles-\(files.count + 1).xml").status == 404)
        #expect(try app.client().get("/sitemaps/articles-0.xml").status == 404)
        #expect(try app.client().get("/sitemaps/nothing.xml").status == 404)
        print(
            "sitemap index: inserting 49,999 articles took \(inserting), 2 more \(insertingMore); "
                + "the 50,000-address sitemap \(fetchSingle); the index and its \(files.count) files \(fetchIndex)")
    }
}
