import Foundation
import Testing

@testable import Herald

/// The sample feeds live next to this file: the test target declares no resources, so they are read by path.
private func feed(_ file: String) throws -> [UInt8] {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Feeds/\(file)")
    return Array(try Data(contentsOf: url))
}

private func parse(_ file: String) throws -> [IncomingArticle] {
    try FeedParser.parse(feed(file), name: "feeds/\(file)")
}

private func parseText(_ text: String, name: String = "inline") throws(FeedError) -> [IncomingArticle] {
    try FeedParser.parse(Array(text.utf8), name: name)
}

/// The FeedError a parse throws; nil if it succeeded (or threw anything else, which is also a failure).
private func feedError(_ body: () throws -> [IncomingArticle]) -> FeedError? {
    do {
        _ = try body()
        return nil
    } catch {
        return error as? FeedError
    }
}

private func rss(items: String) -> String {
    "<rss version=\"2.0\"><channel><title>t</title>\(items)</channel></rss>"
}

@Suite struct FeedParserTests {
    // MARK: Atom

    @Test func atomEntriesWithHTMLXHTMLAndTextContent() throws {
        let articles = try parse("atom.xml")
        try #require(articles.count == 3)

        #expect(
            articles[0]
                == IncomingArticle(
                    sourceID: "tag:wire.example,2024:1",
                    title: "Q&A: why 1 < 2 & other truths",
                    summary: "Why one is less than two.",
                    body: "First & foremost: café — “quoted”.\n\nSecond\n\nThird <script> stays text.",
                    author: "Ada Lovelace", section: "science", publishedAt: 1_709_296_200,
                    originalURL: "https://wire.example/1"))

        #expect(
            articles[1]
                == IncomingArticle(
                    sourceID: "tag:wire.example,2024:2",
                    title: "Inline XHTML & friends",
                    summary: "Para one <tag> & more. Item A Item B",
                    body: "Para one <tag> & more.\n\nItem A\n\nItem B",
                    author: "Wire Desk",  // the feed's author, declared after the entries
                    section: "", publishedAt: 1_709_294_400))  // 14:00:00.250+02:00, fraction dropped

        let third = articles[2]
        #expect(third.sourceID == "https://wire.example/3")  // no id: the alternate link, not rel="related"
        #expect(third.title == "Plain <text> title")
        #expect(third.author == "Grace Hopper")
        #expect(third.publishedAt == 1_709_269_199)  // `updated` only; 23:59:59-05:00 on a leap day
        // type="text" is not HTML: "&amp;" in the decoded XML text stays literal.
        #expect(
            third.body == """
                The committee met on Thursday to discuss the plan.

                Members agreed that the proposal, which had been debated for months in several rounds of \
                consultation with residents and businesses, should go ahead &amp; be reviewed next year.
                """)
        #expect(
            third.summary
                == "The committee met on Thursday to discuss the plan. Members agreed that the proposal, which had "
                + "been debated for months in several rounds of consultation with residents and businesses, should "
                + "go ahead…")
    }

    @Test func atomScriptContentNeverSurvives() throws {
        let articles = try parse("atom.xml")
        for article in articles {
            #expect(!article.body.contains("alert(1)"))
            #expect(!article.body.contains("gotcha"))
        }
    }

    @Test func atomExternalEntityIsRefusedAndNeverRead() throws {
        let data = try feed("broken-xxe.xml")
        let error = try #require(feedError { try FeedParser.parse(data, name: "x.xml") })
        #expect(error.description.hasPrefix("x.xml: "))
        #expect(error.reason.contains("<!ENTITY"))
        #expect(!error.description.contains("root:"))
    }

    @Test func externalDTDIsNeverFetched() throws {
        // Loading /etc/passwd as a DTD would fail the parse; not loading it leaves a plain feed.
        let xml = """
            <?xml version="1.0"?>
            <!DOCTYPE feed SYSTEM "file:///etc/passwd">
            <feed xmlns="http://www.w3.org/2005/Atom"><entry><id>a</id><title>T</title>
            <updated>2024-01-01T00:00:00Z</updated></entry></feed>
            """
        #expect(try parseText(xml).map(\.title) == ["T"])
    }

    @Test func summaryAndBodyFallBackOnEachOther() throws {
        let atom = """
            <feed xmlns="http://www.w3.org/2005/Atom"><entry><id>a</id><title>T</title>
            <updated>2024-01-01T00:00:00Z</updated>
            <summary type="html">&lt;p&gt;Only a &lt;i&gt;summary&lt;/i&gt;.&lt;/p&gt;</summary></entry></feed>
            """
        let article = try #require(try parseText(atom).first)
        #expect(article.summary == "Only a summary.")
        #expect(article.body == "Only a summary.")

        // A "summary" that is a whole article is cut to 500 characters; the body keeps all of it.
        let words = String(repeating: "word ", count: 120)
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "a", "title": "T",
            "summary": "\(words)", "date_published": "2024-01-01T00:00:00Z"}]}
            """
        let long = try #require(try parseText(json).first)
        #expect(long.summary == String(String(repeating: "word ", count: 100).dropLast()) + "…")
        #expect(long.body == String(words.dropLast()))
    }

    // MARK: RSS

    @Test func rssItemsWithContentEncodedCreatorAndZonedDates() throws {
        let articles = try parse("rss.xml")
        try #require(articles.count == 4)

        #expect(
            articles[0]
                == IncomingArticle(
                    sourceID: "gazette-1001",
                    title: "Council approves budget & new <bike> lanes",
                    summary: "The council voted 7–2 on Tuesday.",
                    body: "The council voted 7–2.\n\nLanes open in May.",
                    author: "Maria Lopez", section: "local politics", publishedAt: 1_709_663_400,  // GMT
                    originalURL: "https://gazette.example/budget"))

        #expect(
            articles[1]
                == IncomingArticle(
                    sourceID: "https://gazette.example/mayor",  // no guid: the link
                    title: "Q&A with the mayor",  // double-escaped title decoded once more
                    summary: "Part one. Part two.",
                    body: "Part one.\n\nPart two.",  // no content:encoded: the description is the body
                    author: "Jo Park",  // from "jo@gazette.example (Jo Park)"
                    section: "", publishedAt: 1_709_561_700,  // 09:15 EST = 14:15 UTC
                    originalURL: "https://gazette.example/mayor"))

        #expect(articles[2].sourceID == "https://gazette.example/weather")
        #expect(articles[2].author == "Weather Desk")  // a bare address gives way to dc:creator
        #expect(articles[2].summary == "Sunny.")
        #expect(articles[2].body == "Sunny.")
        #expect(articles[2].publishedAt == 1_709_489_710)  // no weekday, +0530

        #expect(articles[3].publishedAt == 1_709_524_800)  // 21:00 PDT without seconds = 04:00 UTC next day
        #expect(articles[3].author == "")
    }

    @Test func rssItemWithoutTitleNamesTheItem() throws {
        let data = try feed("broken-rss-no-title.xml")
        let error = try #require(feedError { try FeedParser.parse(data, name: "feeds/nt.xml") })
        #expect(error.description == "feeds/nt.xml: item 2 at line 10 (\"nt-2\") has no title")
    }

    @Test func truncatedXMLIsRefusedWithALineNumber() throws {
        let data = try feed("broken-truncated.xml")
        let error = try #require(feedError { try FeedParser.parse(data, name: "feeds/cut.xml") })
        #expect(error.description.hasPrefix("feeds/cut.xml: not well-formed XML at line 12: "))
    }

    @Test func mismatchedTagsAndHTMLEntitiesAreNotXML() {
        let mismatch = feedError { try parseText(rss(items: "<item>\n<title>x</titel></item>"), name: "m.xml") }
        #expect(
            mismatch?.description == "m.xml: not well-formed XML at line 2: an end tag does not match its start tag")
        let entity = feedError { try parseText(rss(items: "<item><title>a&nbsp;b</title></item>")) }
        #expect(entity?.reason.hasPrefix("not well-formed XML at line 1: undeclared entity") == true)
    }

    @Test func rssItemWithoutDateIsRefusedNotDatedNow() {
        let error = feedError { try parseText(rss(items: "<item><title>t</title><guid>g1</guid></item>")) }
        #expect(error?.reason == "item 1 at line 1 (\"g1\") has no date (pubDate or dc:date)")
        let bad = feedError {
            try parseText(
                rss(items: "<item><title>t</title><guid>g1</guid><pubDate>Mon, 01 Jan 2024 10:00:00</pubDate></item>"))
        }
        #expect(bad?.reason == "item 1 at line 1 (\"g1\") has an unparseable date \"Mon, 01 Jan 2024 10:00:00\"")
    }

    @Test func rssDatesFallBackToDublinCoreAndISO8601() throws {
        let dc = rss(
            items: #"<item xmlns:dc="http://purl.org/dc/elements/1.1/"><title>t</title><guid>g</guid>"#
                + "<dc:date>2024-03-01T12:00:00+01:00</dc:date></item>")
        #expect(try parseText(dc).first?.publishedAt == 1_709_290_800)
        let iso = rss(items: "<item><title>t</title><guid>g</guid><pubDate>2024-03-01T11:00:00Z</pubDate></item>")
        #expect(try parseText(iso).first?.publishedAt == 1_709_290_800)
    }

    @Test func rssItemWithoutGuidOrLinkIsRefused() {
        let error = feedError {
            try parseText(rss(items: "<item><title>t</title><pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate></item>"))
        }
        #expect(error?.reason == "item 1 at line 1 has no guid or link")
    }

    // MARK: JSON Feed

    @Test func jsonFeed11() throws {
        let articles = try parse("feed-1.1.json")
        try #require(articles.count == 2)
        #expect(
            articles[0]
                == IncomingArticle(
                    sourceID: "j1", title: "Tom & Jerry <3", summary: "A classic.",
                    body: "Line one still one.\n\nPara two.",  // content_text preferred over content_html
                    author: "Ann Writer", section: "culture", publishedAt: 1_705_305_600,
                    originalURL: "https://json.example/1"))
        #expect(
            articles[1]
                == IncomingArticle(
                    sourceID: "42",  // numeric id coerced, as the spec asks
                    title: "Numbered", summary: "Hello & welcome Bye", body: "Hello & welcome\n\nBye",
                    author: "Feed Author",  // inherited from the feed
                    section: "", publishedAt: 1_705_428_000))  // date_modified, -08:00
    }

    @Test func jsonFeed10() throws {
        let articles = try parse("feed-1.0.json")
        #expect(
            articles == [
                IncomingArticle(
                    sourceID: "https://old.example/a", title: "Old style", summary: "Café © 2017",
                    body: "Café © 2017", author: "Brent", section: "news", publishedAt: 1_495_040_532)
            ])
    }

    @Test func jsonBadDateNamesTheItem() throws {
        let data = try feed("broken-bad-date.json")
        let error = try #require(feedError { try FeedParser.parse(data, name: "x.json") })
        #expect(error.description == "x.json: item 2 (\"bad-2\") has an unparseable date \"yesterday at noon\"")
    }

    @Test func jsonThatIsNotAFeedIsAnUnknownFormat() throws {
        let data = try feed("broken-not-a-feed.json")
        let error = try #require(feedError { try FeedParser.parse(data, name: "package.json") })
        #expect(error.description.hasPrefix("package.json: unknown feed format (expected Atom, RSS 2.0 or JSON Feed)"))
    }

    @Test func jsonItemProblemsAreNamed() {
        let feed = #"{"version": "https://jsonfeed.org/version/1.1", "items": [ITEMS]}"#
        func reason(_ items: String) -> String? {
            feedError { try parseText(feed.replacingOccurrences(of: "ITEMS", with: items)) }?.reason
        }
        let date = #""date_published": "2024-01-01T00:00:00Z""#
        #expect(reason(#"{"id": "a", "title": "A", \#(date)}, {"id": "c", \#(date)}"#) == #"item 2 ("c") has no title"#)
        #expect(reason(#"{"title": "A", \#(date)}"#) == "item 1 has no id")
        #expect(reason(#"{"id": "a", "title": 7, \#(date)}"#) == #"item 1: "title" is not a string"#)
        #expect(reason(#""just a string""#) == "item 1 is not an object")
        #expect(reason(#"{"id": "a", "title": "A"}"#) == #"item 1 ("a") has no date (date_published or date_modified)"#)
        #expect(
            feedError { try parseText(#"{"version": "https://jsonfeed.org/version/1.1", "items": [}"#) }?
                .reason.hasPrefix("not valid JSON") == true)
    }

    // MARK: Format detection and limits

    @Test func unknownFormatsAreRefused() {
        let html = feedError { try parseText("<!DOCTYPE html>\n<html><body>hi</body></html>", name: "page.html") }
        #expect(
            html?.description
                == "page.html: unknown feed format (expected Atom, RSS 2.0 or JSON Feed): the root element is <html>")
        // An Atom-looking root outside the Atom namespace is not Atom.
        let fake = feedError { try parseText("<feed><entry/></feed>") }
        #expect(fake?.reason.hasPrefix("unknown feed format") == true)
        #expect(feedError { try parseText("title: hello") }?.reason.hasPrefix("unknown feed format") == true)
        #expect(feedError { try parseText(" \n ") }?.reason == "the file is empty")
    }

    @Test func emptyButValidFeedsGiveNoArticles() throws {
        #expect(try parseText(rss(items: "")) == [])
        #expect(try parseText(#"<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title></feed>"#) == [])
        #expect(try parseText(#"{"version": "https://jsonfeed.org/version/1.1", "title": "t", "items": []}"#) == [])
    }

    @Test func oversizedInputIsRefusedBeforeParsing() {
        let data = [UInt8](repeating: UInt8(ascii: " "), count: 32 * 1024 * 1024 + 1)
        let error = feedError { try FeedParser.parse(data, name: "big.xml") }
        #expect(error?.description == "big.xml: the file is 33554433 bytes; the limit is 32 MiB")
    }

    @Test func moreThan10000EntriesAreRefused() throws {
        let item = #"{"id": "x", "title": "t", "date_published": "2024-01-01T00:00:00Z"}"#
        let json =
            #"{"version": "https://jsonfeed.org/version/1.1", "items": ["#
            + Array(repeating: item, count: 10_001).joined(separator: ",") + "]}"
        #expect(feedError { try parseText(json) }?.reason == "the feed has more than 10000 entries")

        let rssItem = "<item><title>t</title><guid>g</guid><pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate></item>"
        let xml = rss(items: String(repeating: rssItem, count: 10_001))
        #expect(feedError { try parseText(xml) }?.reason == "the feed has more than 10000 entries")
        #expect(try parseText(rss(items: String(repeating: rssItem, count: 10_000))).count == 10_000)
    }

    @Test func overlongTitleAndBodyAreRefusedNotTruncated() {
        let date = "<pubDate>Mon, 01 Jan 2024 10:00:00 GMT</pubDate>"
        let title = String(repeating: "a", count: 501)
        let long = feedError { try parseText(rss(items: "<item><title>\(title)</title><guid>g</guid>\(date)</item>")) }
        #expect(long?.reason == "item 1 at line 1 (\"g\") has a title of 501 characters; the limit is 500")

        let ok = String(repeating: "é", count: 500)
        #expect(
            (try? parseText(rss(items: "<item><title>\(ok)</title><guid>g</guid>\(date)</item>")))?.first?.title == ok)

        let body = String(repeating: "word ", count: 40_001)
        let big = feedError {
            try parseText(
                rss(items: "<item><title>t</title><guid>g</guid><description>\(body)</description>\(date)</item>"))
        }
        #expect(big?.reason == "item 1 at line 1 (\"g\") has a body of 200004 characters; the limit is 200000")
    }

    // MARK: Dates

    @Test func rfc3339Dates() {
        #expect(FeedDate.rfc3339("1970-01-01T00:00:00Z") == 0)
        #expect(FeedDate.rfc3339("2024-03-01T12:30:00Z") == 1_709_296_200)
        #expect(FeedDate.rfc3339("2024-03-01t12:30:00.999999z") == 1_709_296_200)
        #expect(FeedDate.rfc3339("2024-03-01T14:30:00+02:00") == 1_709_296_200)
        #expect(FeedDate.rfc3339("2024-03-01T07:00:00-05:30") == 1_709_296_200)
        #expect(FeedDate.rfc3339("2024-03-01 12:30:00+0000") == 1_709_296_200)
        #expect(FeedDate.rfc3339("2024-03-01T12:30Z") == 1_709_296_200)
        #expect(FeedDate.rfc3339("1969-12-31T23:59:59Z") == -1)
        #expect(FeedDate.rfc3339("2024-02-29T00:00:00Z") == 1_709_164_800)
        #expect(FeedDate.rfc3339("2023-02-29T00:00:00Z") == nil)  // not a leap year
        #expect(FeedDate.rfc3339("2024-03-01T12:30:00") == nil)  // no offset: the instant is unknown
        #expect(FeedDate.rfc3339("2024-13-01T00:00:00Z") == nil)
        #expect(FeedDate.rfc3339("2024-03-01T24:00:00Z") == nil)
        #expect(FeedDate.rfc3339("2024-03-01T12:30:00.Z") == nil)
        #expect(FeedDate.rfc3339("2024-03-01T12:30:00Z trailing") == nil)
        #expect(FeedDate.rfc3339("yesterday") == nil)
    }

    @Test func rfc822Dates() {
        let noon = 1_709_294_400  // 2024-03-01 12:00:00 UTC
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 12:00:00 GMT") == noon)
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 12:00:00 UT") == noon)
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 12:00:00 Z") == noon)
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 07:00:00 EST") == noon)
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 08:00:00 EDT") == noon)
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 06:00:00 CST") == noon)
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 05:00:00 MST") == noon)
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 04:00:00 PST") == noon)
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 05:00:00 PDT") == noon)
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 13:00:00 +0100") == noon)
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 06:30:00 -05:30") == noon)
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 04:00:00 -0800 (PST)") == noon)
        #expect(FeedDate.rfc822("1 March 2024 12:00 gmt") == noon)
        #expect(FeedDate.rfc822("Friday, 01 Mar 24 12:00:00 GMT") == noon)  // two-digit year
        #expect(FeedDate.rfc822("Mon, 01 Mar 2024 12:00:00 GMT") == noon)  // wrong weekday: ignored
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 12:00:00") == nil)  // no zone
        #expect(FeedDate.rfc822("Fri, 01 Mar 2024 12:00:00 XYZ") == nil)
        #expect(FeedDate.rfc822("Fri, 31 Apr 2024 12:00:00 GMT") == nil)
        #expect(FeedDate.rfc822("Fri, 01 Foo 2024 12:00:00 GMT") == nil)
        #expect(FeedDate.rfc822("2024-03-01T12:00:00Z") == nil)  // RSS falls back to RFC 3339 separately
    }

    // MARK: Summaries

    @Test func excerptsCutAtAWordBoundary() {
        let text = String(repeating: "abcdefghi ", count: 30)  // 300 characters
        let excerpt = FeedEntryFields.excerpt(of: text, limit: 200)
        #expect(excerpt == String(String(repeating: "abcdefghi ", count: 20).dropLast()) + "…")
        #expect(FeedEntryFields.excerpt(of: "Short.\n\nTwo paragraphs.", limit: 200) == "Short. Two paragraphs.")
        // Mid-word limit: back up to the space, drop the dangling comma.
        #expect(FeedEntryFields.excerpt(of: "alpha beta, gamma delta", limit: 14) == "alpha beta…")
        // No usable boundary: a hard cut rather than an excerpt of one word.
        #expect(FeedEntryFields.excerpt(of: "a " + String(repeating: "x", count: 30), limit: 10) == "a xxxxxxxx…")
    }

    // MARK: HTMLText

    @Test func scriptsStylesAndCommentsAreDroppedWithTheirContent() {
        #expect(HTMLText.plainParagraphs(fromHTML: "a<script>alert('</p>')</script>b") == "ab")
        #expect(HTMLText.plainParagraphs(fromHTML: "a<SCRIPT type=x>x < y</SCRIPT >b") == "ab")
        #expect(HTMLText.plainParagraphs(fromHTML: "<style>p { x: '>' }</style><p>Text</p>") == "Text")
        #expect(HTMLText.plainParagraphs(fromHTML: "<p>a<!-- <p>hidden</p> -->b</p>") == "ab")
        #expect(HTMLText.plainParagraphs(fromHTML: "x<iframe><iframe>in</iframe>still in</iframe>y") == "xy")
        #expect(HTMLText.plainParagraphs(fromHTML: "x<object data=a><param>fallback</object>y") == "xy")
        #expect(HTMLText.plainParagraphs(fromHTML: "visible<script>never closed") == "visible")
        #expect(HTMLText.plainParagraphs(fromHTML: "visible<!-- never closed") == "visible")
    }

    @Test func blockElementsBecomeParagraphs() {
        let html = """
            <h2>Head</h2><p>One
              two</p><div>Three<br/>Four</div>
            <ul><li>Five</li><li>Six</li></ul><blockquote><p>Seven</p></blockquote><p>&nbsp;</p>
            """
        #expect(HTMLText.plainParagraphs(fromHTML: html) == "Head\n\nOne two\n\nThree\n\nFour\n\nFive\n\nSix\n\nSeven")
        #expect(HTMLText.plainParagraphs(fromHTML: "a\r\nb\r\n\r\nc") == "a b c")  // no tags: one paragraph
        #expect(HTMLText.plainParagraphs(fromHTML: "<table><tr><td>a</td><td>b</td></tr></table>") == "a b")
    }

    @Test func nestedInlineTagsKeepTheirText() {
        #expect(
            HTMLText.plainParagraphs(
                fromHTML: #"<p>A <a href="x>y" title='q'><em>deeply <b>nested</b></em></a> link.</p>"#)
                == "A deeply nested link.")
        #expect(HTMLText.plainParagraphs(fromHTML: "<p class=it's>stray quote</p>") == "stray quote")
        #expect(HTMLText.plainParagraphs(fromHTML: "1 < 2 and 3 <4> 5 </ 6") == "1 < 2 and 3 <4> 5 </ 6")
        #expect(HTMLText.plainParagraphs(fromHTML: "<o:p>Word</o:p> <custom-el>tag</custom-el>") == "Word tag")
        #expect(HTMLText.plainParagraphs(fromHTML: "<p>a<![CDATA[<b>]]>c</p>") == "a<b>c")
        #expect(HTMLText.plainParagraphs(fromHTML: "text <a href=\"never closed") == "text")
    }

    @Test func escapedMarkupStaysText() {
        #expect(
            HTMLText.plainParagraphs(fromHTML: "&lt;script&gt;alert(1)&lt;/script&gt;") == "<script>alert(1)</script>")
        #expect(HTMLText.plainParagraphs(fromHTML: "&amp;lt;") == "&lt;")  // decoded once, not twice
    }

    @Test func namedEntities() {
        #expect(
            HTMLText.decodeEntities("&amp;&lt;&gt;&quot;&apos;&nbsp;&mdash;&ndash;&hellip;&lsquo;&rsquo;&ldquo;&rdquo;")
                == "&<>\"'\u{A0}—–…‘’“”")
        #expect(HTMLText.decodeEntities("&copy; &reg; &trade; &euro; &eacute;&Eacute;&uuml;&szlig;") == "© ® ™ € éÉüß")
        // Ends of the Latin-1 table, to catch an off-by-one.
        #expect(HTMLText.decodeEntities("&nbsp;&iquest;&Agrave;&times;&divide;&yuml;") == "\u{A0}¿À×÷ÿ")
        #expect(HTMLText.decodeEntities("AT&T, &unknown; &amp &Amp;") == "AT&T, &unknown; &amp &Amp;")
        #expect(HTMLText.decodeEntities("<b>&lt;b&gt;</b>") == "<b><b></b>")  // tags untouched
    }

    @Test func numericEntities() {
        #expect(HTMLText.decodeEntities("&#233;&#xE9;&#XE9;&#x1F600;") == "ééé😀")
        #expect(HTMLText.decodeEntities("&#65&#66;") == "AB")  // the `;` is optional for numbers
        #expect(HTMLText.decodeEntities("&#146;&#150;&#128;") == "’–€")  // Windows-1252 range
        let replacement = "\u{FFFD}"
        #expect(HTMLText.decodeEntities("&#0;") == replacement)
        #expect(HTMLText.decodeEntities("&#xD800;") == replacement)  // surrogate
        #expect(HTMLText.decodeEntities("&#x110000;") == replacement)
        #expect(HTMLText.decodeEntities("&#99999999999999999999;") == replacement)
        #expect(HTMLText.decodeEntities("&#1;&#x81;") == replacement + replacement)
        #expect(HTMLText.decodeEntities("&#; &#x; &#xZ;") == "&#; &#x; &#xZ;")
    }

    @Test func plainTextNormalization() {
        #expect(
            HTMLText.normalizePlainText("  One\r\ntwo\r\n\r\n\r\n\r\nThree  \n \t \nFour\rfive  ")
                == "One two\n\nThree\n\nFour five")
        #expect(HTMLText.normalizePlainText("<b>not markup</b> &amp;") == "<b>not markup</b> &amp;")
        #expect(HTMLText.normalizePlainText("\n\n  \n") == "")
        #expect(HTMLText.normalizePlainText("bell\u{7}\u{FEFF} here") == "bell here")
    }
}

/// Inputs the fuzzer (scripts/fuzz.sh) once crashed on, kept as regression tests.
@Suite struct FeedFuzzRegressionTests {
    @Test func utf7DeclarationIsRefusedInsteadOfCrashingLibxml2() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Feeds/fuzz-crash-utf7.xml").path
        let data = try #require(FileManager.default.contents(atPath: path))
        #expect(throws: FeedError.self) { try FeedParser.parse(Array(data), name: "utf7.xml") }
        do { _ = try FeedParser.parse(Array(data), name: "utf7.xml") } catch {
            #expect(error.description.contains("“UTF-7” is not supported"))
        }
        for encoding in ["UTF-7", "EBCDIC-US", "x-bogus", "UCS-4"] {
            let feed = "<?xml version=\"1.0\" encoding=\"\(encoding)\"?><rss version=\"2.0\"><channel></channel></rss>"
            #expect(throws: FeedError.self) { try FeedParser.parse(Array(feed.utf8), name: "x.xml") }
        }
        let latin1 = "<?xml version='1.0' encoding='ISO-8859-1'?><rss version=\"2.0\"><channel></channel></rss>"
        #expect(try FeedParser.parse(Array(latin1.utf8), name: "x.xml").isEmpty)
    }
}
