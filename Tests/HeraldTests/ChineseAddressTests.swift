import Foundation
import HTTP
import Testing

@testable import Herald

/// Addresses of articles and sections titled in Chinese (SPEC third wave, "Language"; issue #33):
/// slugs keep the letters, the wire carries them percent-encoded, every `Location` is ASCII, and
/// the generic slugs such titles had before (`article-2`, `section`) answer 301. On both stores.
@Suite struct ChineseAddressTests {
    static let ferry = "渡輪班次延長至午夜"

    /// `/articles/{slug}` as a browser sends it: every byte of the slug percent-encoded.
    static func wirePath(_ slug: String) -> String { "/articles/" + percentEncodeAll(slug) }

    @Test func aChineseTitleMakesAChineseAddressThatServesTheArticle() throws {
        let app = try TestApp()
        let slugs = try app.publish([
            SearchableArticle(title: Self.ferry, summary: "南灣碼頭的末班船延後。", body: "交通局宣布渡輪班次延長。", section: "港口")
        ])
        #expect(slugs[Self.ferry] == Self.ferry)
        let reader = app.client()
        let page = try reader.get(Self.wirePath(Self.ferry))
        #expect(page.status == 200)
        #expect(page.text.contains("<h1"), "the article page")
        #expect(page.text.contains(Self.ferry))
        // Links in pages carry the decoded form (valid in an href); the section's too.
        let front = try reader.get("/").text
        #expect(front.contains(#"href="/articles/\#(Self.ferry)""#))
        #expect(front.contains(#"href="/sections/港口""#))
        #expect(try reader.get("/sections/" + percentEncodeAll("港口")).status == 200)
        // Malformed UTF-8 is refused; an encoded `/` is part of the segment, so no article has it.
        #expect(try reader.get("/articles/%E6%B8").status == 400)
        #expect(try reader.get("/articles/%FF%FE").status == 400)
        #expect(try reader.get("/articles/" + percentEncodeAll("渡輪/班次")).status == 404)
    }

    @Test func theSameChineseTitleTwiceGetsTwoAddresses() throws {
        let app = try TestApp(server: false, demo: false)
        let now = app.configuration.clock.now()
        _ = try app.app.articles.importArticles(
            (1...2).map {
                IncomingArticle(
                    sourceID: "twice-\($0)", title: Self.ferry, summary: "", body: "第\($0)篇。", author: "Desk",
                    section: $0 == 1 ? "港口" : "港口！", publishedAt: now - 60 * $0)
            }, now: now)
        let rows = try app.app.database.withConnection {
            try $0.query("SELECT slug, section_slug FROM articles ORDER BY id", [])
        }
        #expect(rows.map { $0.string(0) } == [Self.ferry, Self.ferry + "-2"])
        // Two section names that make the same slug: two sections, two addresses.
        #expect(rows.map { $0.string(1) } == ["港口", "港口-2"])
        let reader = app.client()
        #expect(try reader.get(Self.wirePath(Self.ferry + "-2")).text.contains("第2篇"))
    }

    /// A title of punctuation alone takes the article's id, on import and in the newsroom; a
    /// section named so gets its characters' code points. Never the word "article".
    @Test func aTitleWithoutLettersTakesTheArticlesID() throws {
        let app = try TestApp(server: false, demo: false)
        let slugs = try app.publish([SearchableArticle(title: "！？……", body: "只有標點的標題。", section: "★")])
        let id = try #require(
            try app.app.database.withConnection { try $0.query("SELECT id FROM articles", []) }.first?.int(0))
        #expect(slugs["！？……"] == String(id))
        #expect(
            try SectionStore(database: app.app.database).sectionsWithPublishedArticles(now: .max).map(\.slug) == [
                "u2605"
            ])

        let editor = try app.editor()
        let created = try editor.newArticle(ArticleForm(title: "？！", body: "**粗體**", action: "publish"))
        #expect(try editor.articleSlug(created) == created)
        #expect(try app.client().get("/articles/\(created)").status == 200)
    }

    /// Every `Location` is percent-encoded ASCII: a like's 303 (live and resumed after login) and
    /// the return after login to a `next` given decoded.
    @Test func redirectsToAChineseAddressArePercentEncoded() throws {
        let app = try TestApp()
        try app.publish([SearchableArticle(title: Self.ferry, body: "交通局宣布渡輪班次延長。")])
        let encoded = Self.wirePath(Self.ferry)

        let anonymous = app.client()
        let token = try anonymous.formToken(on: encoded)
        let captured = try anonymous.post(encoded + "/like", form: [("csrf_token", token)])
        #expect(captured.status == 303)
        let registered = try anonymous.register("reader-tw")
        #expect(registered.status == 303)
        #expect(registered["Location"] == encoded + "#like", "the resumed like lands on the article")
        #expect(try anonymous.likeCount(percentEncodeAll(Self.ferry)) == 1)

        let unliked = try anonymous.post(
            encoded + "/unlike", form: [("csrf_token", try anonymous.formToken(on: encoded))])
        #expect(unliked.status == 303)
        let location = try #require(unliked["Location"])
        #expect(location.hasPrefix(encoded))
        #expect(location.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F }, "\(location)")

        // A `next` given decoded or encoded after login: the same ASCII Location.
        let other = app.client()
        _ = try other.register("reader-hk")
        _ = try other.logout()
        let back = try other.login("reader-hk", next: "/articles/" + Self.ferry)
        #expect(back["Location"] == encoded)
    }

    /// Sitemaps and feeds carry the address percent-encoded (URIs, as crawlers compare them).
    @Test func feedsAndSitemapsCarryEncodedAddresses() throws {
        let app = try TestApp(server: false, demo: false) { $0.baseURL = "https://news.example" }
        try app.publish([SearchableArticle(title: Self.ferry, body: "交通局宣布。", section: "港口")])
        let reader = app.client()
        let encoded = "https://news.example" + Self.wirePath(Self.ferry)
        let sitemap = try reader.get("/sitemap.xml").text
        #expect(sitemap.contains("<loc>\(encoded)</loc>"), "\(sitemap)")
        #expect(sitemap.contains("<loc>https://news.example/sections/\(percentEncodeAll("港口"))</loc>"))
        let feed = try reader.get("/feed.atom").text
        #expect(feed.contains("<id>\(encoded)</id>"))
        #expect(!feed.contains("/articles/" + Self.ferry))
        let sectionFeed = try reader.get("/sections/\(percentEncodeAll("港口"))/feed.atom")
        #expect(sectionFeed.status == 200)
        #expect(sectionFeed.text.contains("https://news.example/sections/\(percentEncodeAll("港口"))/feed.atom"))
    }
}

/// Articles and sections stored before slugs kept Chinese letters: the migration gives them their
/// titles' slugs, and the old generic addresses answer 301 to the new ones.
@Suite struct OldAddressTests {
    /// A database as the version before the migration left it: Chinese titles with generic slugs,
    /// a punctuation title, and an English article whose slug only looks generic.
    static func oldDatabase(_ backend: Database.Backend) throws {
        let connection: any SQLConnection
        let dialect: Migrations.Dialect
        switch backend {
        case .sqlite(let path):
            connection = try SQLiteConnection(path: path)
            dialect = .sqlite
        case .postgres(let url):
            connection = try PostgresConnection(url: url)
            dialect = .postgres
        }
        try Migrations.apply(to: connection, dialect: dialect, upTo: Migrations.oldSlugsVersion - 1)
        try connection.execute(
            """
            INSERT INTO sections (slug, name, name_key) VALUES ('section', '港口', '港口'), ('section-2', '生活', '生活'),
                ('world', 'World', 'world');
            INSERT INTO articles (slug, title, summary, body, author, section, section_slug, published_at, updated_at)
            VALUES ('article', '渡輪班次延長至午夜', '末班船延後。', '交通局宣布。', 'Desk', '港口', 'section', 1, 1),
                ('article-2', '夜市重新開張', '攤商回流。', '走道加寬。', 'Desk', '生活', 'section-2', 2, 2),
                ('article-3', '！？', '', '只有標點。', 'Desk', '', '', 3, 3),
                ('article-4', 'Article 4', '', 'An English one.', 'Desk', 'World', 'world', 4, 4);
            """)
    }

    @Test func oldGenericAddressesRedirectToTheNewOnes() throws {
        let app = try TestApp(server: false, demo: false, prepareDatabase: Self.oldDatabase)
        let slugs = try app.slugsByTitle()
        #expect(slugs["渡輪班次延長至午夜"] == "渡輪班次延長至午夜")
        #expect(slugs["夜市重新開張"] == "夜市重新開張")
        #expect(slugs["Article 4"] == "article-4", "made from its own title: it stays")
        let punctuationID = try #require(
            try app.app.database.withConnection {
                try $0.query("SELECT id FROM articles WHERE slug = 'article-3' OR title = '！？'", [])
            }.first?.int(0))
        #expect(slugs["！？"] == String(punctuationID))

        let reader = app.client()
        let cases: [(String, String)] = [
            ("/articles/article", "/articles/" + percentEncodeAll("渡輪班次延長至午夜")),
            ("/articles/article-2", "/articles/" + percentEncodeAll("夜市重新開張")),
            ("/articles/article-3", "/articles/\(punctuationID)"),
            ("/sections/section", "/sections/" + percentEncodeAll("港口")),
            ("/sections/section-2?page=1", "/sections/" + percentEncodeAll("生活") + "?page=1"),
            ("/sections/section/feed.atom", "/sections/" + percentEncodeAll("港口") + "/feed.atom"),
        ]
        for (old, new) in cases {
            let answer = try reader.get(old)
            #expect(answer.status == 301, "\(old)")
            #expect(answer["Location"] == new, "\(old)")
            #expect(try reader.get(new).status == 200, "\(new)")
        }
        #expect(try reader.get("/articles/article-4").status == 200)
        #expect(try reader.get("/articles/article-9").status == 404)
        #expect(try reader.get("/sections/section-9").status == 404)
    }
}
