import Foundation
import Testing

@testable import Herald

/// Search reads Chinese (SPEC third wave, "Language"; issue #33): a query without spaces finds the
/// articles holding it, one- and two-character words included; snippets are plain text with the
/// matches in `<mark>`; the page says how many articles match. On both stores.
@Suite struct ChineseSearchTests {
    @Test func chineseWithoutSpacesIsFound() throws {
        let app = try TestApp(server: false, demo: false)
        let slugs = try app.publish([
            SearchableArticle(
                title: "青嶼渡輪班次延長至午夜", summary: "夜歸居民不必再趕末班船。",
                body: "交通局今日宣布，南灣碼頭往返青嶼島的渡輪班次將延長至午夜。"),
            // The two words apart: found by 「渡輪班次」 too, as by 「渡輪 班次」.
            SearchableArticle(title: "颱風逼近", body: "渡輪可能停駛，請留意最新的班次公告。", age: 7_200),
            SearchableArticle(title: "夜市重新開張", body: "攤商回流，走道加寬一倍。", age: 10_800),
            SearchableArticle(title: "Ferry timetable", body: "The ferry runs until midnight.", age: 14_400),
        ])
        let ferry = try #require(slugs["青嶼渡輪班次延長至午夜"])
        let typhoon = try #require(slugs["颱風逼近"])
        let market = try #require(slugs["夜市重新開張"])
        let reader = app.client()
        let cases: [(String, Set<String>)] = [
            ("渡輪班次", [ferry, typhoon]),
            ("渡輪 班次", [ferry, typhoon]),
            ("渡輪", [ferry, typhoon]),
            ("班次延長至午夜", [ferry]),
            ("午夜", [ferry]),
            ("夜", [ferry, market]),
            ("夜市", [market]),
            ("渡輪ferry", []),
            ("ferry", [slugs["Ferry timetable"] ?? ""]),
            ("機場捷運", []),
        ]
        for (query, expected) in cases {
            let (hits, failure) = try allSearchHits(reader, query)
            #expect(failure == nil, "“\(query)” answered \(failure?.status ?? 0)")
            #expect(Set(hits.map(\.slug)) == expected, "“\(query)”: \(hits.map(\.slug))")
        }
        // Short words alone are not ranked: newest first (the ferry article is the newest).
        #expect(searchHits(in: try reader.get(searchPath("渡輪班次")).text).first?.slug == ferry)
    }

    /// Snippets show the words a reader reads, never the Markdown's marks, with the matches marked
    /// and everything else escaped; the page counts the results.
    @Test func snippetsArePlainTextAndThePageCountsResults() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let id = try editor.newArticle(
            ArticleForm(
                title: "夜間渡輪", summary: "",
                body: """
                    # 新時刻表

                    交通局宣布**渡輪班次**延長至午夜，詳見[時刻表](https://example.com/timetable)。

                    - 週五加開 <凌晨> 班次
                    """,
                action: "publish"))
        try app.publish([SearchableArticle(title: "渡輪停駛", body: "颱風來襲，渡輪全面停駛。")])
        let reader = app.client()
        let page = try reader.get(searchPath("渡輪班次")).text
        let hits = searchHits(in: page)
        let hit = try #require(hits.first { $0.slug == (try? editor.articleSlug(id)) })
        #expect(hit.snippetHTML.contains("<mark>渡輪班次</mark>"), "\(hit.snippetHTML)")
        for mark in ["**", "# ", "](", "[時刻表]", "https://example.com"] {
            #expect(!hit.snippetHTML.contains(mark), "no Markdown “\(mark)”: \(hit.snippetHTML)")
        }
        #expect(hit.snippetHTML.contains("詳見時刻表"))
        #expect(hit.snippetHTML.contains("&lt;凌晨&gt;"), "escaped: \(hit.snippetHTML)")
        #expect(page.contains(#"data-result-count="1">1 result<"#), "one article holds both words")

        let both = try reader.get(searchPath("渡輪")).text
        #expect(searchHits(in: both).count == 2)
        #expect(both.contains(#"data-result-count="2">2 results<"#))
    }

    @Test func theCountSaysOrMoreWhereCountingStopped() throws {
        let catalogs = try MessageCatalogs(
            templatesDirectory: TestApp.repositoryRoot + "/Templates", siteLanguage: "en")
        Messages.$rendering.withValue(catalogs[.english]) {
            #expect(SearchPage.countText(0, orMore: false) == "0 results")
            #expect(SearchPage.countText(1, orMore: false) == "1 result")
            #expect(SearchPage.countText(12, orMore: false) == "12 results")
            #expect(SearchPage.countText(999, orMore: false) == "999 results")
            #expect(SearchPage.countText(1_000, orMore: true) == "1,000 or more results")
            #expect(SearchPage.countText(21, orMore: true) == "21 or more results")
        }
        Messages.$rendering.withValue(catalogs[.traditionalChinese]) {
            #expect(SearchPage.countText(12, orMore: false) == "共 12 筆結果")
        }
    }

    /// A query with a short word and nothing for the index says how many its page has seen ("21 or
    /// more"); others count up to the 1,000 that are ranked.
    @Test func countsStopWhereTheSearchStops() throws {
        let app = try TestApp(server: false, demo: false)
        try app.publish(
            (1...105).map { SearchableArticle(title: "第\($0)篇渡輪新聞", body: "渡輪班次公告 ferry。", age: 60 * $0) })
        let reader = app.client()
        #expect(try reader.get(searchPath("渡輪")).text.contains(#"data-result-count="21">21 or more results<"#))
        #expect(try reader.get(searchPath("渡輪", page: 6)).text.contains(#"data-result-count="105">105 results<"#))
        #expect(try reader.get(searchPath("ferry")).text.contains(#"data-result-count="105">105 results<"#))
    }

    @Test func queriesAreCutIntoTerms() {
        #expect(SearchTerms.of("北京 Beijing") == ["北京", "Beijing"])
        #expect(SearchTerms.of("MRT環狀線").first == "MRT")
        #expect(SearchTerms.of("「渡輪」") == ["「", "渡輪", "」"], "punctuation is taken literally")
        #expect(SearchTerms.of("渡輪班次延長") == ["渡輪", "班次", "延長"])
        #expect(SearchTerms.of("서울시") == ["서울시"], "Korean is written with spaces")
        #expect(SearchTerms.of("co-op  co-op") == ["co-op"])
        // Every piece is part of the run: an article holding the run holds them all.
        for query in ["渡輪班次", "班次延長至午夜", "日本の首都", "北京是中国的首都"] {
            #expect(SearchTerms.of(query).allSatisfy { query.contains($0) }, "\(query)")
        }
    }

    /// A snippet reads the rendered body's character references as the characters they stand for
    /// (the importer's decoder), and keeps an ampersand that starts none.
    @Test func snippetTextReadsCharacterReferences() {
        let text = SnippetText.fromHTML("<p>Fish &amp; chips &#x6E21;&#36650; &lt;b&gt; AT&T</p>")
        #expect(text.trimmingCharacters(in: .whitespaces) == "Fish & chips 渡輪 <b> AT&T")
    }
}
