import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// SPEC "Discovery": canonical links, descriptions and Open Graph tags on article pages (issue #20).
@Suite struct OpenGraphTests {
    // MARK: Canonical links, descriptions, Open Graph

    /// An article published with a summary and a lead image, its title full of characters that
    /// need escaping.
    private func publishPictured(_ app: TestApp, title: String, summary: String) throws -> (
        slug: String, imagePath: String
    ) {
        let editor = try app.editor("photodesk")
        let token = try editor.formToken(on: "/editor/articles/new")
        let form = ArticleForm(
            title: title, summary: summary, section: "World News", body: "The body.", imageAlt: "A gradient",
            action: "publish")
        let created = try editor.postMultipart(
            "/editor/articles",
            form.multipart(
                csrfToken: token, image: ("lead.png", "image/png", PNGFile.rgb(width: 30, height: 20))))
        let id = try #require(editedArticleID(created["Location"]), "publishing gave \(created.status)")
        let slug = try editor.articleSlug(id)
        let page = try app.client().get("/articles/\(slug)").text
        let src = try #require(
            firstMatch(#"<figure class="lead-image"><img src="([^"]+)""#, in: page), "no lead image on the page")
        return (slug, src)
    }

    @Test func articlePagesCarryCanonicalDescriptionAndOpenGraphFromTheBaseURL() throws {
        let base = "https://news.example"
        let app = try TestApp(server: false, demo: false) { $0.baseURL = base }
        let title = #"Ferries "sail" <again> & O'Neill waves"#
        let summary = #"Both routes run again — "finally" <b>."#
        let (slug, imagePath) = try publishPictured(app, title: title, summary: summary)
        #expect(imagePath.hasPrefix("/media/"))
        let canonical = base + "/articles/\(slug)"

        // The Host a request names changes nothing: absolute URLs come from the configuration.
        for headers in [[], [("Host", "evil.example")]] {
            let page = try app.client().get("/articles/\(slug)", headers: headers).text
            #expect(canonicalLinks(in: page) == [canonical])
            #expect(metaName("description", in: page).map(unescapeHTML) == [summary])
            #expect(metaProperties("og:title", in: page).map(unescapeHTML) == [title])
            #expect(metaProperties("og:description", in: page).map(unescapeHTML) == [summary])
            #expect(metaProperties("og:url", in: page) == [canonical])
            #expect(metaProperties("og:type", in: page) == ["article"])
            #expect(metaProperties("og:image", in: page) == [base + imagePath])
            let published = metaProperties("article:published_time", in: page)
            #expect(published.count == 1)
            #expect(published.first.flatMap { ISO8601DateFormatter().date(from: $0) } != nil, "\(published)")
            #expect(!page.contains("evil.example"))
            // The title and summary are escaped inside the attributes (no attribute breaks out).
            #expect(!page.contains(#"content="Ferries "sail""#))
            #expect(
                page.contains(
                    #"<meta property="og:title" content="Ferries &quot;sail&quot; &lt;again&gt; &amp; O&#39;Neill waves">"#
                ))
        }

        // No summary, no image: no og:description and no og:image, but still a description.
        let editor = try app.editor("plaindesk")
        let plain = try editor.articleSlug(
            try editor.newArticle(ArticleForm(title: "Plain story", body: "Words only.", action: "publish")))
        let page = try app.client().get("/articles/\(plain)").text
        #expect(canonicalLinks(in: page) == [base + "/articles/\(plain)"])
        #expect(metaProperties("og:description", in: page).isEmpty)
        #expect(metaProperties("og:image", in: page).isEmpty)
        #expect(metaName("description", in: page).count == 1)
        #expect(metaName("description", in: page).first?.isEmpty == false)
        #expect(metaProperties("og:type", in: page) == ["article"])
    }

    @Test func withoutABaseURLThereIsNoCanonicalNoOgURLAndNoOgImage() throws {
        let app = try TestApp(server: false, demo: false)
        let (slug, _) = try publishPictured(app, title: "Pictured, no base", summary: "A summary.")
        for path in ["/articles/\(slug)", "/", "/sections/world-news"] {
            let page = try app.client().get(path, headers: [("Host", "news.example")]).text
            #expect(canonicalLinks(in: page).isEmpty, "\(path)")
            #expect(!page.contains("rel=\"canonical\""), "\(path)")
            #expect(metaProperties("og:url", in: page).isEmpty, "\(path)")
            #expect(metaProperties("og:image", in: page).isEmpty, "\(path)")
            #expect(!page.contains("http://news.example") && !page.contains("https://news.example"), "\(path)")
            #expect(metaName("description", in: page).count == 1, "\(path)")
        }
        let page = try app.client().get("/articles/\(slug)").text
        #expect(metaProperties("og:title", in: page) == ["Pictured, no base"])
        #expect(metaProperties("og:description", in: page) == ["A summary."])
        #expect(metaProperties("og:type", in: page) == ["article"])
        #expect(metaProperties("article:published_time", in: page).count == 1)
    }

    @Test func frontAndSectionPagesCarryCanonicalAndDescription() throws {
        let base = "https://news.example"
        let app = try TestApp(server: false, demo: false) { $0.baseURL = base }
        try app.publish(
            (1...25).map {
                SearchableArticle(title: "World story \($0)", body: "x", section: "World News", age: $0 * 60)
            })
        let reader = app.client()
        let cases: [(String, String)] = [
            ("/", base + "/"), ("/?page=2", base + "/?page=2"), ("/sections/world-news", base + "/sections/world-news"),
            ("/sections/world-news?page=2", base + "/sections/world-news?page=2"),
        ]
        for (path, canonical) in cases {
            let response = try reader.get(path)
            #expect(response.status == 200, "\(path)")
            #expect(canonicalLinks(in: response.text) == [canonical], "\(path)")
            let description = metaName("description", in: response.text)
            #expect(description.count == 1 && description.first?.isEmpty == false, "\(path)")
        }
        let section = try reader.get("/sections/world-news").text
        #expect(metaName("description", in: section).first?.contains("World News") == true)
        // Logged in, the same (a reader's copy is not the cached one).
        let member = try app.reader("member")
        #expect(canonicalLinks(in: try member.get("/").text) == [base + "/"])
    }
}
