import Mustache
import Testing

private struct Author: MustacheObject {
    let name: String
    let handle: String?

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "name": .string(name)
        case "handle": handle.mustacheValue
        case "profile": ["url": "/authors/\(name.lowercased())"]
        default: nil
        }
    }
}

private struct Article: MustacheObject {
    let title: String
    let author: Author
    let tags: [String]
    let likes: Int

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "title": .string(title)
        case "author": .object(author)
        case "tags": tags.mustacheValue
        case "likes": .int(likes)
        default: nil
        }
    }
}

@Suite struct ValueTests {
    private let article = Article(
        title: "Rust & Swift", author: Author(name: "Ada", handle: nil), tags: ["lang", "perf"],
        likes: 0)

    private func render(_ source: String, _ context: MustacheValue) throws -> String {
        try Template(source).render(context)
    }

    @Test func dottedNamesThroughObjects() throws {
        #expect(
            try render("{{title}} by {{author.name}}", .object(article)) == "Rust &amp; Swift by Ada")
        #expect(try render("{{author.profile.url}}", .object(article)) == "/authors/ada")
        #expect(
            try render("{{#author}}{{name}}: {{title}}{{/author}}", .object(article))
                == "Ada: Rust &amp; Swift")
        #expect(try render("[{{author.missing.deeper}}]", .object(article)) == "[]")
    }

    @Test func objectsInsideDictionariesAndLists() throws {
        let context: MustacheValue = [
            "site": "Herald",
            "articles": [
                article, Article(title: "B", author: Author(name: "Bo", handle: "@bo"), tags: [], likes: 3),
            ],
        ]
        let source =
            "{{#articles}}{{title}}/{{author.name}}/{{site}}/{{#author.handle}}{{.}}{{/author.handle}};{{/articles}}"
        #expect(try render(source, context) == "Rust &amp; Swift/Ada/Herald/;B/Bo/Herald/@bo;")
    }

    @Test func missingObjectKeysFallThroughToOuterContexts() throws {
        let context: MustacheValue = ["csrf": "tok", "article": .object(article)]
        #expect(
            try render("{{#article}}{{title}}|{{csrf}}{{/article}}", context) == "Rust &amp; Swift|tok")
    }

    @Test func truthiness() throws {
        let context: MustacheValue = [
            "zero": 0, "empty": "", "none": MustacheValue.null, "list": [] as MustacheValue, "no": false,
            "dict": [:] as MustacheValue, "one": 1, "text": "t", "nilString": String?.none,
        ]
        let falsey = ["zero", "empty", "none", "list", "no", "missing", "nilString"]
        for key in falsey {
            #expect(
                try render("{{#\(key)}}shown{{/\(key)}}{{^\(key)}}hidden{{/\(key)}}", context) == "hidden",
                "\(key)")
        }
        for key in ["dict", "one", "text"] {
            #expect(
                try render("{{#\(key)}}shown{{/\(key)}}{{^\(key)}}hidden{{/\(key)}}", context) == "shown",
                "\(key)")
        }
    }

    @Test func dictionaryLiteralsTakeVariables() throws {
        let title = "A <title>"
        let likes = 12
        let paragraphs = ["one", "two"]
        let subtitle: String? = nil
        let context: MustacheValue = [
            "title": title, "likes": likes, "paragraphs": paragraphs, "subtitle": subtitle,
            "author": ["name": "Ada", "age": 36] as MustacheValue,
        ]
        let source =
            "{{title}} {{likes}} {{#paragraphs}}<p>{{.}}</p>{{/paragraphs}}{{^subtitle}}-{{/subtitle}} {{author.name}} {{author.age}}"
        #expect(try render(source, context) == "A &lt;title&gt; 12 <p>one</p><p>two</p>- Ada 36")
    }

    @Test func nullStopsTheContextSearch() throws {
        // A key that is present but null hides the same key further out, as in JavaScript.
        let context: MustacheValue = [
            "name": "outer", "inner": ["name": MustacheValue.null] as MustacheValue,
        ]
        #expect(try render("{{#inner}}[{{name}}]{{/inner}}", context) == "[]")
    }

    @Test func dictionaryEditing() throws {
        var dictionary: MustacheDictionary = ["a": 1, "b": "two"]
        dictionary["c"] = true
        dictionary["a"] = 10
        dictionary["b"] = nil
        #expect(dictionary.keys == ["a", "c"])
        #expect(try render("{{a}} {{b}} {{c}}", .dictionary(dictionary)) == "10  true")
    }

    @Test func largeDictionariesStayCorrectPastTheScanLimit() throws {
        var dictionary = MustacheDictionary()
        for index in 0..<100 { dictionary["key\(index)"] = .int(index) }
        #expect(dictionary.count == 100)
        #expect(try render("{{key0}} {{key57}} {{key99}} [{{key100}}]", .dictionary(dictionary)) == "0 57 99 []")
        dictionary["key57"] = nil
        dictionary["key3"] = "three"
        #expect(dictionary.count == 99)
        #expect(try render("[{{key57}}] {{key3}} {{key98}}", .dictionary(dictionary)) == "[] three 98")
    }
}
