import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// SPEC "Discovery", search (issue #20): what is found, snippets, the form and its limits, every
/// character taken literally, and generated queries checked against a model of the contract. On
/// SQLite, and on PostgreSQL when `HERALD_TEST_DATABASE_URL` is set.
@Suite struct SearchTests {
    // MARK: Search: what is found

    /// An article is found when it holds every word (a substring, ASCII case ignored) in its
    /// title, summary or body; words may be in different fields.
    @Test func searchFindsArticlesHoldingEveryWordInTitleSummaryOrBody() throws {
        let app = try TestApp(server: false, demo: false)
        let slugs = try app.publish([
            SearchableArticle(
                title: "Harbour ferries resume after storms", summary: "Crossings restart at dawn.",
                body: "The port authority said all routes reopen."),
            SearchableArticle(
                title: "Council weighs the budget", summary: "A LIGHTHOUSE keeper speaks.",
                body: "Quarterly BUDGET numbers are out."),
            SearchableArticle(title: "Orchard notes", body: "The lighthouse was repainted; ferries wait."),
        ])
        let harbour = try #require(slugs["Harbour ferries resume after storms"])
        let council = try #require(slugs["Council weighs the budget"])
        let orchard = try #require(slugs["Orchard notes"])
        let reader = app.client()
        let cases: [(String, Set<String>)] = [
            ("ferries", [harbour, orchard]),
            ("FERRIES", [harbour, orchard]),
            ("FeRr", [harbour, orchard]),
            ("lighthouse", [council, orchard]),
            ("quarterly budget", [council]),
            ("Budget QUARTERLY", [council]),
            ("ferries lighthouse", [orchard]),
            ("port authority", [harbour]),
            ("  ferries \t  dawn  ", [harbour]),
            ("harbour lighthouse", []),
            ("storms dawn reopen", [harbour]),
        ]
        for (query, expected) in cases {
            let (hits, failure) = try allSearchHits(reader, query)
            #expect(failure == nil, "“\(query)” answered \(failure?.status ?? 0)")
            #expect(Set(hits.map(\.slug)) == expected, "“\(query)”")
            #expect(hits.count == Set(hits.map(\.slug)).count, "“\(query)” lists an article twice")
        }
        // A `+` in the query string is a space, as a browser's form sends it.
        #expect(Set(searchHits(in: try reader.get("/search?q=ferries+dawn").text).map(\.slug)) == [harbour])
        // No result: the form, and a message instead of a list.
        let none = try reader.get(searchPath("harbour lighthouse"))
        #expect(none.status == 200)
        #expect(!none.text.contains("search-results"))
        #expect(none.text.contains("No published article holds every one of those words."))
    }

    /// Drafts, scheduled articles (until their time) and unpublished ones are never found.
    @Test func draftsAndScheduledArticlesAreNeverFound() throws {
        let clock = TestClock()
        let app = try TestApp(server: false, demo: false) { $0.clock = clock.clock }
        let editor = try app.editor()
        _ = try editor.newArticle(ArticleForm(title: "Zeppelin draft", body: "A zeppelin sighting, not yet out."))
        let scheduled = try editor.newArticle(
            ArticleForm(
                title: "Zeppelin scheduled", body: "The zeppelin lands tomorrow.",
                publishAt: iso8601(clock.clock.now() + 7_200), action: "publish"))
        let withdrawn = try editor.newArticle(
            ArticleForm(title: "Zeppelin withdrawn", body: "A zeppelin story pulled.", action: "publish"))
        _ = try editor.saveArticle(
            withdrawn, ArticleForm(title: "Zeppelin withdrawn", body: "A zeppelin story pulled.", action: "unpublish"))
        let published = try editor.newArticle(
            ArticleForm(title: "Zeppelin lands", body: "The zeppelin landed.", action: "publish"))
        let publishedSlug = try editor.articleSlug(published)
        try app.publish([SearchableArticle(title: "Zeppelin from the future", body: "zeppelin", age: -3_600)])

        let reader = app.client()
        for who in [reader, editor] {
            let (hits, failure) = try allSearchHits(who, "zeppelin")
            #expect(failure == nil)
            #expect(hits.map(\.slug) == [publishedSlug], "only the published article, for readers and editors alike")
        }
        for word in ["sighting", "tomorrow", "pulled", "future"] {
            #expect(searchHits(in: try reader.get(searchPath(word)).text).isEmpty, "“\(word)”")
        }

        // When their time comes, scheduled articles are found without anything else happening.
        clock.advance(7_261)
        let later = Set(try allSearchHits(reader, "zeppelin").hits.map(\.slug))
        let scheduledSlug = try editor.articleSlug(scheduled)
        #expect(later.contains(scheduledSlug))
        #expect(later.contains(try #require(try app.slugsByTitle()["Zeppelin from the future"])))
        #expect(later.count == 3, "the draft and the withdrawn article stay out: \(later)")
    }

    /// An edit after publishing is what is found (the index follows the text), and the sitemap
    /// says when it changed; likes and comments change neither.
    @Test func anEditedArticleIsFoundByItsNewWordsAndTheSitemapSaysWhen() throws {
        let clock = TestClock()
        let base = "https://news.example"
        let app = try TestApp(server: false, demo: false) {
            $0.clock = clock.clock
            $0.baseURL = base
        }
        let editor = try app.editor()
        var form = ArticleForm(
            title: "Marsupial news", summary: "A quokka report.", body: "The quokka smiled.", action: "publish")
        let id = try editor.newArticle(form)
        let slug = try editor.articleSlug(id)
        let reader = try app.reader("marsupial-fan")
        #expect(searchHits(in: try reader.get(searchPath("quokka")).text).map(\.slug) == [slug])

        clock.advance(3 * 3_600)
        form.title = "Marsupial update"
        form.summary = "A wombat report."
        form.body = "The wombat yawned."
        form.action = "save"
        #expect(try editor.saveArticle(id, form).status == 303)
        for word in ["wombat", "yawned", "update", "marsupial"] {
            #expect(searchHits(in: try reader.get(searchPath(word)).text).map(\.slug) == [slug], "“\(word)”")
        }
        for word in ["quokka", "smiled", "news"] {
            #expect(searchHits(in: try reader.get(searchPath(word)).text).isEmpty, "“\(word)” is no longer there")
        }
        _ = try reader.submitLikeForm(slug)
        let token = try reader.formToken(on: "/articles/\(slug)")
        #expect(
            try reader.post("/articles/\(slug)/comments", form: [("csrf_token", token), ("body", "quokka!")]).status
                == 303)
        #expect(searchHits(in: try reader.get(searchPath("quokka")).text).isEmpty, "comments are not searched")
        #expect(searchHits(in: try reader.get(searchPath("wombat")).text).map(\.slug) == [slug])

        let sitemap = SitemapDocument.parse(try reader.get("/sitemap.xml").body)
        let lastmod = try #require(sitemap.lastModified[base + "/articles/" + slug])
        let date = try #require(ISO8601DateFormatter().date(from: lastmod))
        #expect(Int(date.timeIntervalSince1970) == clock.clock.now(), "the lastmod is the edit: \(lastmod)")
    }

    /// Chinese and Japanese have no spaces between words: a word of any length (one, two or more
    /// characters) is found inside the text.
    @Test func chineseAndJapaneseWordsOfAnyLengthAreFound() throws {
        let app = try TestApp(server: false, demo: false)
        let slugs = try app.publish([
            SearchableArticle(title: "城市简报", body: "北京是中国的首都。人口众多。"),
            SearchableArticle(title: "東京の朝", summary: "今日の話題", body: "東京は日本の首都です。ニュースをお届けします。"),
            SearchableArticle(title: "Capital news", body: "Beijing is the capital of China."),
        ])
        let chinese = try #require(slugs["城市简报"])
        let japanese = try #require(slugs["東京の朝"])
        let english = try #require(slugs["Capital news"])
        let reader = app.client()
        let cases: [(String, Set<String>)] = [
            ("北京", [chinese]),
            ("中国的首都", [chinese]),
            ("北京是中国的首都", [chinese]),
            ("首都", [chinese, japanese]),
            ("京", [chinese, japanese]),
            ("北京 首都", [chinese]),
            ("城市", [chinese]),
            ("東京", [japanese]),
            ("日本の首都", [japanese]),
            ("ニュース", [japanese]),
            ("話題", [japanese]),
            ("上海", []),
            ("北京 Beijing", []),
            ("capital china", [english]),
        ]
        for (query, expected) in cases {
            let (hits, failure) = try allSearchHits(reader, query)
            #expect(failure == nil, "“\(query)” answered \(failure?.status ?? 0)")
            #expect(Set(hits.map(\.slug)) == expected, "“\(query)”")
        }
        let snippet = try #require(searchHits(in: try reader.get(searchPath("北京")).text).first).snippetHTML
        #expect(snippet.contains("<mark>北京</mark>"), "\(snippet)")
        let twoWords = try #require(searchHits(in: try reader.get(searchPath("日本の首都")).text).first).snippetHTML
        #expect(twoWords.contains("<mark>日本の首都</mark>"), "\(twoWords)")
    }

    /// Best first: for a one-word query, an article with the word in its title comes before one
    /// with it only in the body, even when the body-only one is newer.
    @Test func aTitleMatchComesBeforeABodyOnlyMatch() throws {
        let app = try TestApp(server: false, demo: false)
        let slugs = try app.publish([
            SearchableArticle(title: "Weekend notes", body: "We also saw an aurora near the coast.", age: 600),
            SearchableArticle(title: "Aurora over the fjord", body: "Photographs from last night.", age: 259_200),
            SearchableArticle(title: "Night sky", body: "Clear skies; an aurora, briefly.", age: 1_200),
        ])
        let hits = searchHits(in: try app.client().get(searchPath("aurora")).text).map(\.slug)
        #expect(hits.count == 3)
        #expect(hits.first == slugs["Aurora over the fjord"], "\(hits)")
    }

    /// 20 results a page; `page=2` has the next ones; a page past the last is 404; a bad page
    /// number is 400.
    @Test func twentyAPageThenPageTwoThenPastTheLastIs404() throws {
        let app = try TestApp(server: false, demo: false)
        let slugs = try app.publish(
            (1...45).map { number in
                SearchableArticle(
                    title: "Tide table \(number)",
                    body: "tidewater mark \(number)" + (number <= 20 ? " springtide" : ""), age: number * 60)
            })
        let reader = app.client()
        var seen: [String] = []
        for (page, count) in [(1, 20), (2, 20), (3, 5)] {
            let response = try reader.get(searchPath("tidewater", page: page == 1 ? nil : page))
            #expect(response.status == 200, "page \(page)")
            let hits = searchHits(in: response.text)
            #expect(hits.count == count, "page \(page)")
            seen += hits.map(\.slug)
            if page < 3 {
                #expect(nextLink(in: response.text) == "/search?q=tidewater&page=\(page + 1)")
            } else {
                #expect(nextLink(in: response.text) == nil)
            }
            if page > 1 { #expect(response.text.contains("rel=\"prev\"")) }
        }
        #expect(Set(seen) == Set(slugs.values), "every article once across the pages")
        #expect(seen.count == 45)
        #expect(try reader.get(searchPath("tidewater", page: 4)).status == 404)
        #expect(try reader.get(searchPath("tidewater", page: 50)).status == 404)
        // A page number too large for any integer is still a page past the last.
        #expect(try reader.get("/search?q=tidewater&page=99999999999999999999999").status == 404)

        // Exactly 20: one page, no link to a second, and the second is 404.
        let twenty = try reader.get(searchPath("springtide"))
        #expect(searchHits(in: twenty.text).count == 20)
        #expect(nextLink(in: twenty.text) == nil)
        #expect(try reader.get(searchPath("springtide", page: 2)).status == 404)
        // No result at all: page 1 is the form with a message, page 2 is 404.
        #expect(try reader.get(searchPath("nowhere-to-be-found")).status == 200)
        #expect(try reader.get(searchPath("nowhere-to-be-found", page: 2)).status == 404)

        for page in ["0", "-1", "x", "1.5", "", "+2", "2 "] {
            let status = try reader.get("/search?q=tidewater&page=" + percentEncodeAll(page)).status
            #expect(status == 400, "page=\(page) answered \(status)")
        }
    }

    // MARK: Search: snippets

    /// Matches are in `<mark>`; everything else, the article's own markup included, is escaped.
    @Test func snippetsMarkMatchesAndEscapeEverythingElse() throws {
        let app = try TestApp(server: false, demo: false)
        let body =
            #"Before the vote, <b>x</b> & "quotes" were printed; the walrus said <script>alert(1)</script> nothing."#
        let far = String(repeating: "filler words here ", count: 300) + "the narwhal surfaced."
        let slugs = try app.publish([
            SearchableArticle(title: "The <i>walrus</i> speaks", summary: "A walrus summary.", body: body),
            SearchableArticle(title: "Deep water", body: far),
        ])
        let reader = app.client()

        let page = try reader.get(searchPath("walrus")).text
        let hit = try #require(searchHits(in: page).first)
        #expect(hit.slug == slugs["The <i>walrus</i> speaks"])
        #expect(hit.titleHTML == "The &lt;i&gt;walrus&lt;/i&gt; speaks")
        #expect(hit.snippetHTML.contains("<mark>walrus</mark>"))
        #expect(hit.snippetHTML.contains("&lt;b&gt;x&lt;/b&gt;"), "\(hit.snippetHTML)")
        #expect(hit.snippetHTML.contains("&lt;script&gt;alert(1)&lt;/script&gt;"))
        #expect(!page.contains("<b>x</b>"))
        #expect(!page.contains("<script>alert(1)"))
        let unmarked = hit.snippetHTML.replacingOccurrences(of: "<mark>", with: "")
            .replacingOccurrences(of: "</mark>", with: "")
        #expect(!unmarked.contains("<") && !unmarked.contains(">"), "only <mark> is markup: \(hit.snippetHTML)")

        // The text's own case is kept inside the mark.
        let upper = try #require(searchHits(in: try reader.get(searchPath("WALRUS")).text).first)
        #expect(upper.snippetHTML.contains("<mark>walrus</mark>"))
        // A query that is itself markup is found as text and marked, escaped.
        let markup = try reader.get(searchPath("<b>x</b>")).text
        let markupHit = try #require(searchHits(in: markup).first)
        #expect(markupHit.snippetHTML.contains("<mark>&lt;b&gt;x&lt;/b&gt;</mark>"), "\(markupHit.snippetHTML)")
        #expect(!markup.contains("<b>x</b>"))
        // Two words: both marked; the query echoed in the form and the title is escaped.
        let both = try reader.get(searchPath("walrus <script>alert(1)</script>")).text
        let bothHit = try #require(searchHits(in: both).first)
        #expect(bothHit.snippetHTML.contains("<mark>walrus</mark>"))
        #expect(bothHit.snippetHTML.contains("<mark>&lt;script&gt;alert(1)&lt;/script&gt;</mark>"))
        #expect(!both.contains("<script>alert(1)"))
        #expect(both.contains("value=\"walrus &lt;script&gt;alert(1)&lt;/script&gt;\""))

        // A match deep in a long body: the snippet is the text around it, not the whole body.
        let deep = try #require(searchHits(in: try reader.get(searchPath("narwhal")).text).first)
        #expect(deep.snippetHTML.contains("<mark>narwhal</mark>"))
        #expect(deep.snippetHTML.count < 400, "\(deep.snippetHTML.count) characters")
    }

    // MARK: Search: the form and the limits

    /// Empty `q`: the search form (200, no results list). Over 200 characters: 400.
    @Test func anEmptyQueryShowsTheFormAndOver200CharactersIs400() throws {
        let app = try TestApp(server: false)
        let reader = app.client()
        for path in ["/search", "/search?q=", "/search?q=%20%20%09", "/search?q=+", "/search?page=1"] {
            let response = try reader.get(path)
            #expect(response.status == 200, "\(path)")
            #expect(
                response.text.contains(#"<form method="get" action="/search" role="search" class="search-form">"#),
                "\(path)")
            #expect(!response.text.contains("search-results"), "\(path)")
            #expect(!response.text.contains("No published article"), "\(path)")
        }
        let cases: [(String, Int)] = [
            (String(repeating: "a", count: 200), 200),
            (String(repeating: "a", count: 201), 400),
            (String(repeating: "中", count: 200), 200),
            (String(repeating: "中", count: 201), 400),
            (String(repeating: "word ", count: 41), 400),
            (String(repeating: "🚀", count: 201), 400),
        ]
        for (query, status) in cases {
            let response = try reader.get(searchPath(query))
            #expect(response.status == status, "\(query.count) characters of \(query.first!)")
            if status == 400 { #expect(response.text.contains("200"), "the message says the limit") }
        }
        #expect(try reader.get(searchPath(String(repeating: "a", count: 201), page: 2)).status == 400)
    }

    // MARK: Search: every character is literal

    /// `%` and `_` are text, never LIKE wildcards; `\` is text too.
    @Test func percentAndUnderscoreAreNotWildcards() throws {
        let app = try TestApp(server: false, demo: false)
        let articles = [
            SearchableArticle(title: "Half price", body: "Everything at 50% today."),
            SearchableArticle(title: "Fifty", body: "5x0 and 500 items, 5000 more."),
            SearchableArticle(title: "Snakes", body: "a snake_case_name here"),
            SearchableArticle(title: "Camels", body: "a snakeXcase name there"),
            SearchableArticle(title: "Paths", body: #"saved in C:\temp\file today"#),
        ]
        let slugs = try app.publish(articles)
        let reader = app.client()
        let cases: [(String, Set<String>)] = [
            ("50%", ["Half price"]),
            ("5_%", []),
            ("5%", []),
            ("%", ["Half price"]),
            ("%%", []),
            ("0%", ["Half price"]),
            ("_", ["Snakes"]),
            ("e_c", ["Snakes"]),
            ("snake_case", ["Snakes"]),
            ("e_case_", ["Snakes"]),
            ("5_0", []),
            ("__", []),
            (#"\"#, ["Paths"]),
            (#"\t"#, ["Paths"]),
            (#"C:\temp"#, ["Paths"]),
            (#"\%"#, []),
            (#"\_"#, []),
            (#"\\"#, []),
        ]
        for (query, titles) in cases {
            let (hits, failure) = try allSearchHits(reader, query)
            #expect(failure == nil, "“\(query)” answered \(failure?.status ?? 0)")
            #expect(Set(hits.map(\.slug)) == Set(titles.compactMap { slugs[$0] }), "“\(query)”")
            #expect(Set(hits.map(\.slug)) == expectedSlugs(query, articles, slugs), "“\(query)” (the model)")
        }
    }

    /// Quotes, `*`, `NEAR`, `-`, `:`, parentheses, `^`, `'`, AND / OR / NOT, unbalanced quotes and
    /// emoji are text: each word is looked for as written.
    @Test func punctuationAndQuerySyntaxAreLiteral() throws {
        let app = try TestApp(server: false, demo: false)
        let articles = [
            SearchableArticle(
                title: "Say cheese",
                body:
                    #"The sign read "cheese" in C++ and C#; e-mail foo:bar (paren) x^2 O'Brien wild*card NEAR the door."#
            ),
            SearchableArticle(title: "Wildlife", body: "wildlife and wildcats"),
            SearchableArticle(title: "Cats and dogs", body: "cats and dogs, for nothing"),
            SearchableArticle(title: "Only cats", body: "cats sleeping here"),
            SearchableArticle(title: "Rocket", body: "🚀 launch 👩‍👩‍👧 family 🇫🇷 flag"),
        ]
        let slugs = try app.publish(articles)
        let reader = app.client()
        let cases: [(String, Set<String>)] = [
            (#""cheese""#, ["Say cheese"]),
            (#""cheese"#, ["Say cheese"]),
            (#"cheese""#, ["Say cheese"]),
            (#"""#, ["Say cheese"]),
            (#""""#, []),
            (#"""""#, []),
            ("C++", ["Say cheese"]),
            ("C#", ["Say cheese"]),
            ("e-mail", ["Say cheese"]),
            ("-mail", ["Say cheese"]),
            ("cats -dogs", []),
            ("foo:bar", ["Say cheese"]),
            ("title:cheese", []),
            ("body:cats", []),
            ("(paren)", ["Say cheese"]),
            ("(", ["Say cheese"]),
            (")", ["Say cheese"]),
            ("x^2", ["Say cheese"]),
            ("^", ["Say cheese"]),
            ("^cats", []),
            ("O'Brien", ["Say cheese"]),
            ("'", ["Say cheese"]),
            ("wild*", ["Say cheese"]),
            ("wild*card", ["Say cheese"]),
            ("*", ["Say cheese"]),
            ("wil*", []),
            ("NEAR", ["Say cheese"]),
            ("NEAR(cats dogs)", []),
            ("cats NEAR dogs", []),
            ("cats OR dogs", ["Cats and dogs"]),
            ("cats NOT dogs", ["Cats and dogs"]),
            ("cats AND dogs", ["Cats and dogs"]),
            ("wildcats OR cats", []),
            ("cats", ["Wildlife", "Cats and dogs", "Only cats"]),
            ("🚀", ["Rocket"]),
            ("🚀 launch", ["Rocket"]),
            ("👩‍👩‍👧", ["Rocket"]),
            ("🇫🇷", ["Rocket"]),
            ("🛸", []),
            ("{title}: cheese", []),
            ("cheese;", []),
            ("'; DROP TABLE articles; --", []),
        ]
        for (query, titles) in cases {
            let (hits, failure) = try allSearchHits(reader, query)
            #expect(failure == nil, "“\(query)” answered \(failure?.status ?? 0): \(failure?.text.prefix(200) ?? "")")
            #expect(Set(hits.map(\.slug)) == Set(titles.compactMap { slugs[$0] }), "“\(query)”")
            #expect(Set(hits.map(\.slug)) == expectedSlugs(query, articles, slugs), "“\(query)” (the model)")
        }
        #expect(try app.slugsByTitle().count == 5, "the articles are all still there")
    }

    /// Control characters (NUL included), invalid UTF-8 and direction marks in `q`: a 200 or a
    /// 400, never a 5xx.
    @Test func controlCharactersAndBrokenEncodingsAreNeverA5xx() throws {
        let app = try TestApp(server: false, demo: false)
        try app.publish([SearchableArticle(title: "Cats", body: "cats and more cats")])
        let reader = app.client()
        let targets = [
            "%00", "a%00b", "cats%00", "%00cats", "cat%00s", "cats%20%00", "%01cats", "cats%1F", "cats%7F", "%0D%0A",
            "%FF", "cats%FF", "%C3%28", "%E2%80%AEcats", "%EF%BF%BF", "%F4%90%80%80", "%ED%A0%80", "%C0%80", "%",
            "%%", "%G0", "cats%2", "%E4%B8", "a%00%00%00b",
        ]
        var answers: [String] = []
        for target in targets {
            let response = try reader.get("/search?q=" + target)
            answers.append("\(target) → \(response.status)")
            #expect(
                response.status == 200 || response.status == 400,
                "q=\(target) answered \(response.status): \(response.text.prefix(200))")
        }
        print("control characters: " + answers.joined(separator: ", "))
    }

    /// SPEC: "published articles holding every word of q". A query of thirteen words, the last of
    /// which no article holds, finds nothing (or is refused with a 4xx); it never finds an
    /// article that lacks a word.
    @Test func everyWordCountsEvenPastTwelve() throws {
        let app = try TestApp(server: false, demo: false)
        let words = [
            "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf", "hotel", "india", "juliett", "kilo",
            "lima",
        ]
        try app.publish([SearchableArticle(title: "Phonetic", body: words.joined(separator: " "))])
        let reader = app.client()
        #expect(searchHits(in: try reader.get(searchPath(words.joined(separator: " "))).text).count == 1)
        let thirteen = try reader.get(searchPath((words + ["mike"]).joined(separator: " ")))
        #expect(
            (400..<500).contains(thirteen.status) || searchHits(in: thirteen.text).isEmpty,
            "“\((words + ["mike"]).joined(separator: " "))” answered \(thirteen.status) listing an article without “mike”"
        )
        let mikeFirst = try reader.get(searchPath((["mike"] + words).joined(separator: " ")))
        #expect((400..<500).contains(mikeFirst.status) || searchHits(in: mikeFirst.text).isEmpty)
    }

    // MARK: Search: generated queries

    /// A few thousand generated queries (seeded, so any failure is reproducible): punctuation,
    /// search syntax, SQL, LIKE wildcards, emoji, CJK, control characters, odd whitespace,
    /// over-long ones. None is a 5xx; over 200 characters is 400; and each answered query lists
    /// exactly the published articles holding every word (compared with a plain model of the
    /// contract), without repeats, escaped.
    @Test func generatedQueriesNeverFailAndFindExactlyTheArticlesHoldingEveryWord() throws {
        let seed: UInt64 = 0x20_D15C_0FE7
        var random = SeededRandom(seed: seed)
        let app = try TestApp(server: false, demo: false)
        var articles: [SearchableArticle] = []
        for index in 0..<30 {
            func text(_ range: ClosedRange<Int>) -> String {
                (0..<Int.random(in: range, using: &random)).map { _ in
                    GeneratedQueries.corpusTokens.randomElement(using: &random)!
                }
                .joined(separator: " ")
            }
            articles.append(
                SearchableArticle(
                    title: "Story \(index) " + text(1...3), summary: text(0...4), body: text(2...12), age: 60 * index))
        }
        articles.append(
            SearchableArticle(
                title: "Unpublished future story", body: GeneratedQueries.corpusTokens.joined(separator: " "),
                age: -86_400))
        let slugs = try app.publish(articles)
        let published = Array(articles.dropLast())
        let reader = app.client()

        let started = ContinuousClock.now
        let deadline = started + .seconds(30)
        var sent = 0
        var checked = 0
        var found = 0
        var statuses: [Int: Int] = [:]
        var failures: [String] = []
        while sent < 8_000 && ContinuousClock.now < deadline && failures.count < 15 {
            let query = GeneratedQueries.query(using: &random)
            sent += 1
            let target: String
            switch query {
            case .text(let text): target = searchPath(text)
            case .raw(let raw): target = "/search?q=" + raw
            }
            let response = try reader.get(target)
            statuses[response.status, default: 0] += 1
            func fail(_ why: String) {
                failures.append("#\(sent) GET \(target) → \(response.status): \(why) \(response.text.prefix(160))")
            }
            guard response.status < 500 else {
                fail("5xx")
                continue
            }
            guard case .text(let text) = query else {
                if response.status != 200 && response.status != 400 { fail("expected 200 or 400") }
                continue
            }
            if text.count > Search.maximumQueryCharacters {
                if response.status != 400 { fail("over 200 characters, expected 400") }
                continue
            }
            if text.unicodeScalars.contains(where: {
                $0.properties.generalCategory == .control && !$0.properties.isWhitespace
            }) {
                if response.status != 200 && response.status != 400 { fail("expected 200 or 400") }
                continue
            }
            guard response.status == 200 else {
                fail("expected 200")
                continue
            }
            if response.text.contains("<b>bold</b>") || response.text.contains("<script>x") {
                fail("unescaped markup on the page")
            }
            let words = GeneratedQueries.words(text)
            if words.isEmpty {
                if response.text.contains("search-results") { fail("no words, but a results list") }
                continue
            }
            let (hits, failure) = try allSearchHits(reader, text)
            if let failure {
                fail("a later page answered \(failure.status)")
                continue
            }
            let expected = expectedSlugs(text, published, slugs)
            let got = hits.map(\.slug)
            if Set(got) != expected || got.count != expected.count {
                let missing = expected.subtracting(got).sorted()
                let extra = Set(got).subtracting(expected).sorted()
                fail("words \(words): missing \(missing), extra \(extra), \(got.count) listed for \(expected.count)")
            }
            for hit in hits {
                let bare = hit.snippetHTML.replacingOccurrences(of: "<mark>", with: "")
                    .replacingOccurrences(of: "</mark>", with: "")
                if bare.contains("<") || bare.contains(">") { fail("markup in a snippet: \(hit.snippetHTML)") }
            }
            checked += 1
            found += got.isEmpty ? 0 : 1
        }
        let elapsed = (ContinuousClock.now - started).components
        let seconds = Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
        print(
            "generated queries: seed \(seed), \(sent) sent in \(String(format: "%.1f", seconds)) s, \(checked) checked "
                + "against the model (\(found) with results), statuses \(statuses.sorted { $0.key < $1.key })")
        #expect(failures.isEmpty, "\(failures.count) failing queries:\n\(failures.joined(separator: "\n"))")
        #expect(sent >= 1_000, "only \(sent) queries within the time bound")
        #expect(checked >= 300 && found >= 50, "the generator should mostly make queries that find something")
    }

    // MARK: Search box

    /// Every page has a search box in its header: a GET form to /search with a `q` field.
    @Test func everyPageHasTheSearchBoxInItsHeader() throws {
        let app = try TestApp(server: false)
        let editor = try app.editor("searcher")
        _ = try editor.newArticle(ArticleForm(title: "Sectioned", section: "World News", body: "x", action: "publish"))
        let slug = try app.firstSlug()
        let anonymous = app.client()
        let pages: [(any HTTPTestClient, String)] = [
            (anonymous, "/"), (anonymous, "/articles/\(slug)"), (anonymous, "/login"), (anonymous, "/register"),
            (anonymous, "/search"), (anonymous, "/search?q=news"), (anonymous, "/sections/world-news"),
            (anonymous, "/no-such-page"), (anonymous, "/articles/no-such-article"), (anonymous, "/?page=2"),
            (editor, "/"), (editor, "/me/likes"), (editor, "/account"), (editor, "/editor"),
            (editor, "/editor/articles/new"), (editor, "/articles/\(slug)"),
        ]
        for (client, path) in pages {
            let response = try client.get(path)
            let html = response.text
            guard let header = firstMatch(#"(?s)(<header class="masthead">.*?</header>)"#, in: html) else {
                Issue.record("no masthead on \(path) (\(response.status))")
                continue
            }
            let form = firstMatch(#"(?s)(<form[^>]*\baction="/search"[^>]*>.*?</form>)"#, in: header)
            #expect(form != nil, "no search form in the header of \(path) (\(response.status))")
            #expect(form?.contains(#"method="get""#) == true, "\(path)")
            #expect(form?.contains(#"name="q""#) == true, "\(path)")
        }
    }
}

/// What the contract says a query finds among `articles`: those holding every word of it (split
/// on whitespace), ASCII case ignored, in title, summary or body.
func expectedSlugs(_ query: String, _ articles: [SearchableArticle], _ slugs: [String: String]) -> Set<String> {
    let words = GeneratedQueries.words(query)
    guard !words.isEmpty else { return [] }
    return Set(
        articles.filter { article in
            let text = asciiFolded(article.title + " " + article.summary + " " + article.body)
            return words.allSatisfy { containsBytes(text, asciiFolded($0)) }
        }.compactMap { slugs[$0.title] })
}

/// The query generator of `generatedQueriesNeverFail…`.
enum GeneratedQueries {
    /// What the generated articles are made of: words, punctuation inside words, CJK, emoji.
    static let corpusTokens = [
        "harbour", "Ferry", "ferries", "budget", "COUNCIL", "river", "50%", "500", "5_0", "a_b", "x%y", "C++", "C#",
        "e-mail", "foo:bar", "(paren)", "x^2", "O'Brien", "\"quoted\"", #"path\to"#, "NEAR", "and", "or", "not",
        "wild*card", "wildlife", "🚀", "🚀launch", "北京是中国的首都", "東京は日本の首都です", "ニュース", "首都", "AND", "Or",
        "<b>bold</b>", "&amp;", "a&b", "semi;colon", "dash--dash", "col:umn", "{brace}", "[bracket]", "~tilde",
        "+plus", "|pipe", "x=y", "50%off", "100%", "_lead", "trail_", #"\%"#, #"\_"#, "'quote'", "NOT", "😀😃😄",
    ]

    /// Query syntax of FTS5, LIKE, SQL and PostgreSQL, and other troublemakers.
    static let syntax = [
        "\"", "*", "NEAR", "NEAR(", "NEAR/2", "-", ":", "(", ")", "^", "'", "%", "_", "\\", "AND", "OR", "NOT", "\"\"",
        "\"unbalanced", "unbalanced\"", "{", "}", "+", "~", "title:", "body:", "summary:", "*:", "{title body}:", "||",
        "--", ";", "/*", "*/", "'; DROP TABLE articles; --", "' OR '1'='1", "%' OR 1=1 --", "\\'", "$$", "E'\\x00'",
        "%%", "\\%", "\\_", "[", "]", ".", ",", "?", "!", "@", "#", "$", "&", "=", "<", ">", "|", "`", "<script>x",
        "</script>", "&lt;", "&#0;", "%00", "%s", "%n", "{{q}}", "{{{q}}}", "🚀", "👩‍👩‍👧", "🇫🇷", "é", "\u{301}",
        "\u{200B}", "\u{FEFF}", "\u{202E}", "ﷺ", "𝔘", "NEAR(a b, 3)", "a*", "^a", "\"a\" OR \"b\"", "(a OR b)",
    ]

    static let whitespace = [" ", " ", " ", "  ", "\t", "\n", "\r\n", "\u{3000}", "\u{A0}", "\u{2003}"]

    static let characters = Array(
        "abcXYZ019 \"*-:()^'%_\\!?.,;[]{}<>|&=+~`@#$/中国首都東京ニュース🚀😀é")

    enum Query {
        /// Text, percent-encoded byte by byte.
        case text(String)
        /// A raw query-string value (control characters, broken percent-encoding, invalid UTF-8).
        case raw(String)
    }

    /// The words the server looks for: the query split on whitespace.
    /// The contract's words: split on whitespace; within a word, a run of Chinese or Japanese
    /// characters is cut into pieces of two (written without spaces), the rest kept whole.
    static func words(_ query: String) -> [String] {
        query.split(whereSeparator: { $0.isWhitespace || $0.isNewline }).flatMap { word -> [String] in
            var pieces: [String] = []
            var run: [Character] = []
            var inCJK = false
            func flush() {
                guard !run.isEmpty else { return }
                if inCJK {
                    pieces += stride(from: 0, to: run.count, by: 2).map { String(run[$0..<min($0 + 2, run.count)]) }
                } else {
                    pieces.append(String(run))
                }
                run = []
            }
            for character in word {
                let cjk = character.unicodeScalars.first.map(isChineseOrJapanese) ?? false
                if cjk != inCJK { flush() }
                inCJK = cjk
                run.append(character)
            }
            flush()
            return pieces
        }
    }

    /// Han, kana and bopomofo, and the ideographic marks: what the generated queries use.
    static func isChineseOrJapanese(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3005...0x3007, 0x3021...0x3029, 0x3040...0x30FF, 0x3100...0x312F, 0x31A0...0x31BF, 0x31F0...0x31FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3134F:
            true
        default: false
        }
    }

    static func query(using random: inout SeededRandom) -> Query {
        func token() -> String {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<4:
                var word = corpusTokens.randomElement(using: &random)!
                if Bool.random(using: &random) { word = flipCase(word, using: &random) }
                return word
            case 4..<7:
                let word = Array(corpusTokens.randomElement(using: &random)!)
                let start = Int.random(in: 0..<word.count, using: &random)
                let end = Int.random(in: (start + 1)...word.count, using: &random)
                return flipCase(String(word[start..<end]), using: &random)
            default:
                return syntax.randomElement(using: &random)!
            }
        }
        func joined(_ count: Int) -> String {
            var text = ""
            for index in 0..<count {
                if index > 0 {
                    text +=
                        Int.random(in: 0..<4, using: &random) == 0
                        ? whitespace.randomElement(using: &random)! : " "
                }
                text += token()
            }
            return text
        }
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<11:
            return .text(joined(Int.random(in: 1...3, using: &random)))
        case 11..<13:
            // Glued: syntax stuck to words, as people type it.
            return .text((0..<Int.random(in: 2...4, using: &random)).map { _ in token() }.joined())
        case 13..<15:
            return .text(
                String(
                    (0..<Int.random(in: 1...14, using: &random)).map { _ in characters.randomElement(using: &random)! })
            )
        case 15:
            // Around the 200-character limit.
            let length = Int.random(in: 190...215, using: &random)
            return .text(String((0..<length).map { _ in characters.randomElement(using: &random)! }))
        case 16:
            return .text(
                whitespace.randomElement(using: &random)! + joined(Int.random(in: 1...5, using: &random))
                    + whitespace.randomElement(using: &random)!)
        case 17:
            // Control characters inside words.
            let control = Unicode.Scalar(UInt8.random(in: 1...0x1F, using: &random))
            return .text(token() + String(Character(control)) + token())
        default:
            // Raw bytes: NUL, DEL, lone continuation bytes, overlong forms, broken escapes.
            let pieces = [
                "%00", "%7F", "%FF", "%C3", "%C3%28", "%E2%82", "%ED%A0%80", "%C0%AF", "%F8%88%80%80%80", "%",
                "%4", "%ZZ", "+", "%2B", "%26", "%3D", "%23", "cats", "%E5%8C%97%E4%BA%AC",
            ]
            return .raw(
                (0..<Int.random(in: 1...4, using: &random)).map { _ in pieces.randomElement(using: &random)! }
                    .joined())
        }
    }

    static func flipCase(_ text: String, using random: inout SeededRandom) -> String {
        String(
            text.map { character -> Character in
                guard character.isASCII, character.isLetter, Bool.random(using: &random) else { return character }
                return character.isUppercase ? Character(character.lowercased()) : Character(character.uppercased())
            })
    }
}
