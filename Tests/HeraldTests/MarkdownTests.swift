import Testing

@testable import Herald

@Suite struct MarkdownTests {
    // MARK: What editors write

    @Test func rendersGitHubTables() {
        let html = Markdown.html("| Team | Goals |\n|:-----|------:|\n| Lyon | 3 |\n| Nice | 1 |\n")
        #expect(html.contains("<table>"))
        #expect(html.contains("<th align=\"left\">Team</th>"))
        #expect(html.contains("<th align=\"right\">Goals</th>"))
        #expect(html.contains("<td align=\"left\">Nice</td>"))
        #expect(html.contains("<td align=\"right\">1</td>"))
    }

    @Test func rendersStrikethrough() {
        #expect(Markdown.html("The ~~old~~ new plan") == "<p>The <del>old</del> new plan</p>\n")
    }

    @Test func autolinksBareURLsAndAddresses() {
        let html = Markdown.html("See www.example.com, https://example.org/a?b=1 or write to desk@example.com.")
        #expect(html.contains("<a href=\"http://www.example.com\">www.example.com</a>"))
        #expect(html.contains("<a href=\"https://example.org/a?b=1\">https://example.org/a?b=1</a>"))
        #expect(html.contains("<a href=\"mailto:desk@example.com\">desk@example.com</a>"))
    }

    @Test func rendersEmphasisAndLinks() {
        #expect(
            Markdown.html("*Breaking* **news**: [the report](https://example.com/r \"Report\")")
                == "<p><em>Breaking</em> <strong>news</strong>: "
                + "<a href=\"https://example.com/r\" title=\"Report\">the report</a></p>\n")
    }

    @Test func escapesCode() {
        #expect(
            Markdown.html("```html\n<script>alert(\"x\") && 1</script>\n```\n")
                == "<pre><code class=\"language-html\">&lt;script&gt;alert(&quot;x&quot;) &amp;&amp; 1&lt;/script&gt;\n"
                + "</code></pre>\n")
        #expect(Markdown.html("Use `<b>` here") == "<p>Use <code>&lt;b&gt;</code> here</p>\n")
    }

    @Test func keepsUnicodeIntact() {
        let text = "北京的新闻 🎉👩‍👩‍👧 مرحبا بالعالم שלום עולם \u{200F}ok"
        #expect(Markdown.html(text) == "<p>\(text)</p>\n")
        #expect(Markdown.html("# 标题 🚀") == "<h2>标题 🚀</h2>\n")
    }

    @Test func rendersNothingForNothing() {
        #expect(Markdown.html("") == "")
        #expect(Markdown.html("  \n\n\t\n") == "")
    }

    @Test func rendersTheSameOnManyThreadsAtOnce() async {
        let text = String(repeating: "A ~~struck~~ word and www.example.com in a line.\n", count: 200)
        let expected = Markdown.html(text)
        #expect(expected.contains("<del>struck</del>"))
        #expect(expected.contains("<a href=\"http://www.example.com\">"))
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<100).filter { _ in Markdown.html(text) != expected }.count }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
    }

    // MARK: Headings

    @Test func theHighestHeadingBecomesH2AndTheOthersKeepTheirOrder() {
        let html = Markdown.html("# One\n\n## Two\n\n### Three\n\nSetext\n======\n\n##### Five\n\n###### Six\n")
        #expect(!html.contains("<h1"))
        #expect(html.contains("<h2>One</h2>"))
        #expect(html.contains("<h3>Two</h3>"))
        #expect(html.contains("<h4>Three</h4>"))
        #expect(html.contains("<h2>Setext</h2>"))
        // Four levels lie above it: the fifth level used, shown as the fifth (no level skipped).
        #expect(html.contains("<h5>Five</h5>"))
        #expect(html.contains("<h6>Six</h6>"))
    }

    /// SPEC "Pages, in small ways": a body that starts at `##` has `<h2>` right under the title,
    /// not `<h3>` (axe's heading-order); a gap the author left is closed, the order is kept.
    @Test func aBodyStartingAtLevelTwoStartsAtH2() {
        let html = Markdown.html("## Start\n\nText.\n\n#### Deeper\n\n## Again\n")
        #expect(html == "<h2>Start</h2>\n<p>Text.</p>\n<h3>Deeper</h3>\n<h2>Again</h2>\n")
        #expect(Markdown.html("### Only\n") == "<h2>Only</h2>\n")
    }

    @Test func moreThanFiveLevelsStopAtH6() {
        let html = Markdown.html("# 1\n\n## 2\n\n### 3\n\n#### 4\n\n##### 5\n\n###### 6\n")
        #expect(html.contains("<h5>4</h5>") && html.contains("<h6>5</h6>") && html.contains("<h6>6</h6>"))
    }

    // MARK: Raw HTML is escaped, never passed through (nor replaced by a comment)

    @Test(arguments: [
        ("<script>alert(1)</script>", "<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>\n"),
        (
            "Look <img src=x onerror=alert(1)> here",
            "<p>Look &lt;img src=x onerror=alert(1)&gt; here</p>\n"
        ),
        ("Some <b>bold</b> words", "<p>Some &lt;b&gt;bold&lt;/b&gt; words</p>\n"),
        (
            "<div onclick=\"steal()\">\nhidden\n</div>\n\nafter",
            "<p>&lt;div onclick=&quot;steal()&quot;&gt;\nhidden\n&lt;/div&gt;</p>\n<p>after</p>\n"
        ),
        ("<!-- a note -->", "<p>&lt;!-- a note --&gt;</p>\n"),
        (
            "> <iframe src=\"https://evil.example\">",
            "<blockquote>\n<p>&lt;iframe src=&quot;https://evil.example&quot;&gt;</p>\n</blockquote>\n"
        ),
        ("- <style>body{}</style>", "<ul>\n<li>&lt;style&gt;body{}&lt;/style&gt;</li>\n</ul>\n"),
    ])
    func escapesRawHTML(input: String, expected: String) {
        let html = Markdown.html(input)
        #expect(html == expected)
        #expect(!html.contains("raw HTML omitted"))
    }

    // MARK: Link and image targets

    static let refusedTargets = [
        "javascript:alert(1)",
        "JaVaScRiPt:alert(1)",
        "&#106;avascript:alert(1)",
        "&#x4A;&#x61;vascript:alert(1)",
        "java&#x09;script:alert(1)",
        "java&#10;script:alert(1)",
        "&#32;javascript:alert(1)",
        "&#1;javascript:alert(1)",
        "<\u{1}javascript:alert(1)>",
        "%6Aavascript:alert(1)",
        "javascript%3Aalert(1)",
        "javascript%253Aalert(1)",
        "&#xA0;javascript:alert(1)",
        "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
        "DATA:image/png;base64,iVBORw0KGgo=",
        "vbscript:msgbox(1)",
        "file:///etc/passwd",
        "ftp://example.com/file",
        "//evil.example/",
        "\\\\evil.example/",
        "/\\evil.example/",
        "%2F%2Fevil.example/",
    ]

    @Test(arguments: refusedTargets)
    func refusesLinksToOtherSchemes(target: String) {
        let html = Markdown.html("[read this](\(target)) and ![a photo](\(target))")
        #expect(!html.contains("<a "))
        #expect(!html.contains("<img "))
        #expect(html.contains("read this"))
        #expect(html.contains("a photo"))
    }

    @Test(arguments: refusedTargets)
    func refusesReferenceLinksToOtherSchemes(target: String) {
        let html = Markdown.html("[read this][1] and ![photo][1]\n\n[1]: \(target)")
        #expect(!html.contains("<a "))
        #expect(!html.contains("<img "))
    }

    @Test func refusesAutolinksToOtherSchemes() {
        let html = Markdown.html("<javascript:alert(1)> <data:text/html,x> <VBScript:x> ftp://example.com/file")
        #expect(!html.contains("<a "))
        #expect(html.contains("javascript:alert(1)"))
        #expect(html.contains("ftp://example.com/file"))
    }

    @Test func keepsTheTextOfARefusedLinkWithItsFormatting() {
        #expect(
            Markdown.html("[**bold** text](javascript:x) and ![the *alt*](data:x)")
                == "<p><strong>bold</strong> text and the <em>alt</em></p>\n")
        // A refused link around an allowed image keeps the image.
        #expect(Markdown.html("[![pic](/p.png)](javascript:x)") == "<p><img src=\"/p.png\" alt=\"pic\" /></p>\n")
    }

    @Test(arguments: [
        ("https://example.com/a?b=1&c=2#d", "https://example.com/a?b=1&amp;c=2#d"),
        ("HTTP://EXAMPLE.COM", "HTTP://EXAMPLE.COM"),
        ("mailto:desk@example.com", "mailto:desk@example.com"),
        ("/sections/world", "/sections/world"),
        ("#notes", "#notes"),
        ("?page=2", "?page=2"),
        ("other-article", "other-article"),
        ("../up/a:b", "../up/a:b"),
        ("/path%20with%3Acolon", "/path%20with%3Acolon"),
        ("", ""),
    ])
    func keepsLinksToTheWebMailAndLocalPaths(target: String, href: String) {
        #expect(Markdown.html("[x](<\(target)>)") == "<p><a href=\"\(href)\">x</a></p>\n")
        #expect(Markdown.html("![x](<\(target)>)") == "<p><img src=\"\(href)\" alt=\"x\" /></p>\n")
    }

    @Test func urlPolicyDecidesOnTheTargetAsABrowserWouldReadIt() {
        #expect(MarkdownURLPolicy.allows("https://example.com"))
        // cmark would write the space as %20: the browser would not see the scheme then.
        #expect(!MarkdownURLPolicy.allows(" https://example.com"))
        #expect(!MarkdownURLPolicy.allows("ht\ttps://example.com"))
        #expect(MarkdownURLPolicy.allows("https://example.com/a b\t"))
        #expect(!MarkdownURLPolicy.allows("\u{0}\u{1F} javascript:x"))
        #expect(!MarkdownURLPolicy.allows("ja\tva\nscr\ript:x"))
        #expect(!MarkdownURLPolicy.allows("java%09script:x"))
        #expect(!MarkdownURLPolicy.allows("%25252525252536Aavascript:x"))  // still changing after three decodings
        // Found by FuzzMarkdown: no scheme (the colon comes after a slash), yet it reads as one.
        #expect(!MarkdownURLPolicy.allows("JaVaScRiPt\u{FFFD}\u{FFFD}/\\\u{1}\u{FFFD}:alert(0)"))
        #expect(!MarkdownURLPolicy.allows("javascript-tips"))
        #expect(MarkdownURLPolicy.allows("/javascript-tips"))
        #expect(!MarkdownURLPolicy.allows("tel:+33123456789"))
        #expect(!MarkdownURLPolicy.allows("a b:c"))
    }

    // MARK: What this cmark-gfm (0.29.0.gfm.6) would take too long over

    @Test func leavesTablesAsTextWhenShortRowsWouldBePaddedTooFar() {
        // 300 columns, then 2,000 rows cmark would pad to 300 cells each.
        let wide = String(repeating: "|h", count: 300) + "|\n" + String(repeating: "|-", count: 300) + "|\n"
        let html = Markdown.html(wide + String(repeating: "a\n", count: 2_000))
        #expect(!html.contains("<table"))
        #expect(MarkdownBudget(wide + "a\n").tablesFit)
        #expect(MarkdownBudget(wide + String(repeating: "a\n", count: 2_000)).tablesFit == false)
    }

    @Test func countsRowsSeparatedByCROrCRLF() {
        let wide = String(repeating: "|h", count: 300) + "|\r" + String(repeating: "|-", count: 300) + "|\r\n"
        #expect(!MarkdownBudget(wide + String(repeating: "a\r", count: 2_000)).tablesFit)
        #expect(!MarkdownBudget(wide + String(repeating: "a\r\n", count: 2_000)).tablesFit)
        // A blank line ends a table: rows after it are not padded.
        #expect(MarkdownBudget(wide + "\n" + String(repeating: "a\n", count: 2_000)).tablesFit)
    }

    @Test func leavesTablesAsTextWhenARowHasTooManyCells() {
        let html = Markdown.html("|a|\n|-|\n" + String(repeating: "|", count: 5_000))
        #expect(!html.contains("<table"))
    }

    @Test func showsTextWithTooManyImageOpenersUnrendered() {
        let text = String(repeating: "![![[]()", count: 2_000) + " <script>"
        #expect(!MarkdownBudget(text).bracketsFit)
        let html = Markdown.html(text)
        #expect(html.hasPrefix("<pre>![![[]()![![[]()"))
        #expect(html.hasSuffix(" &lt;script&gt;</pre>\n"))
    }

    @Test func ordinaryArticlesAreFarBelowBothBudgets() {
        let table = "| a | b | c |\n|---|---|---|\n" + String(repeating: "| 1 | -2 | 3 |\n", count: 500)
        let paragraph = String(repeating: "![photo](/p.png) and [a link](/l) ", count: 100)
        let budget = MarkdownBudget(table + "\n" + paragraph)
        #expect(budget.tableCost < MarkdownBudget.tableCost / 50)
        #expect(budget.bracketCost < MarkdownBudget.bracketCost / 10)
        #expect(Markdown.html(table).contains("<td>-2</td>"))
    }

    @Test(arguments: [
        String(repeating: ">", count: 100_000),
        String(repeating: "[", count: 100_000),
        String(repeating: "*", count: 100_000),
        String(repeating: "> ", count: 50_000),
        String(repeating: "- ", count: 50_000),
        String(repeating: "*a **a ", count: 7_000) + "b" + String(repeating: " a** a*", count: 7_000),
        String(repeating: "[a](<b", count: 16_000),
        String(repeating: "<!--", count: 25_000),
        String(repeating: "a@b.", count: 25_000),
        String(repeating: "www.a", count: 20_000),
        String(repeating: "![[]()", count: 16_000),
        "a|b\n-|-\n" + String(repeating: "a|", count: 50_000),
        String(repeating: "|x", count: 2_000) + "|\n" + String(repeating: "|-", count: 2_000) + "|\n"
            + String(repeating: "a\n", count: 40_000),
    ])
    func rendersAdversarialInputOfTheMaximumLength(text: String) {
        let html = Markdown.html(text)
        #expect(!html.isEmpty)
        #expect(!html.contains("<script"))
    }
}
