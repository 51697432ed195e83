import Mustache
import Testing

@Suite struct EscapingTests {
    private func render(_ source: String, _ context: MustacheValue) throws -> String {
        try Template(source).render(context)
    }

    @Test func escapesTheFiveHTMLCharacters() throws {
        #expect(try render("{{x}}", ["x": "& < > \" '"]) == "&amp; &lt; &gt; &quot; &#39;")
        #expect(
            try render("<a title=\"{{t}}\">", ["t": "Tom's \"best\" <b>&</b>"])
                == "<a title=\"Tom&#39;s &quot;best&quot; &lt;b&gt;&amp;&lt;/b&gt;\">")
    }

    @Test func rawTagsDoNotEscape() throws {
        #expect(try render("{{{x}}}|{{&x}}", ["x": "<b>&'\"</b>"]) == "<b>&'\"</b>|<b>&'\"</b>")
    }

    @Test func escapingAtTheEdgesOfAString() throws {
        #expect(try render("{{x}}", ["x": "<"]) == "&lt;")
        #expect(try render("{{x}}", ["x": "<<>>"]) == "&lt;&lt;&gt;&gt;")
        #expect(try render("[{{x}}]", ["x": ""]) == "[]")
        #expect(
            try render("{{x}}", ["x": "plain text without specials"]) == "plain text without specials")
    }

    @Test func multiByteTextPassesThroughUnchanged() throws {
        let text = "Grüße, 日本語, Ελληνικά, emoji 👋🏽 and 🇫🇷, combining é"
        #expect(try render("{{x}}", ["x": .string(text)]) == text)
        #expect(try render("{{{x}}}", ["x": .string(text)]) == text)
        #expect(try render("«{{x}}» — ünïcödé", ["x": "café <b>"]) == "«café &lt;b&gt;» — ünïcödé")
    }

    @Test func longStringsWithScatteredSpecials() throws {
        let chunk = "Ünïcode “quotes” & <tags> don't break 日本 "
        let long = String(repeating: chunk, count: 200)
        let expectedChunk = "Ünïcode “quotes” &amp; &lt;tags&gt; don&#39;t break 日本 "
        #expect(
            try render("{{x}}", ["x": .string(long)]) == String(repeating: expectedChunk, count: 200))
    }

    @Test func numbersAndBooleans() throws {
        #expect(
            try render(
                "{{a}} {{b}} {{c}} {{d}} {{e}}", ["a": 0, "b": -42, "c": 3.0, "d": 2.5, "e": true])
                == "0 -42 3 2.5 true")
        #expect(try render("{{x}}", ["x": .int(Int.min)]) == "-9223372036854775808")
        #expect(try render("{{x}}", ["x": UInt64.max]) == "18446744073709551615")
    }

    @Test func renderIntoReusesTheCallersBuffer() throws {
        let template = try Template("<p>{{x}}</p>")
        var out = Array("prefix:".utf8)
        try template.render(["x": "a&b"], into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "prefix:<p>a&amp;b</p>")
    }
}
