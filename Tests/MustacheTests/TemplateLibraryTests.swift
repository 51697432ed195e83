import Foundation
import Mustache
import Testing

/// A fresh directory under the system temporary directory, removed when the test ends.
private final class TemporaryDirectory {
    let path: String

    init() throws {
        path =
            FileManager.default.temporaryDirectory
            .appendingPathComponent("mustache-tests-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    func write(_ name: String, _ contents: String) throws {
        try contents.write(toFile: path + "/" + name, atomically: true, encoding: .utf8)
    }

    func touch(_ name: String, secondsFromNow: TimeInterval) throws {
        try FileManager.default.setAttributes(
            [.modificationDate: Date().addingTimeInterval(secondsFromNow)],
            ofItemAtPath: path + "/" + name)
    }
}

@Suite struct TemplateLibraryTests {
    static let layout = """
        <!doctype html>
        <html>
        <head><title>{{$title}}Herald{{/title}}</title></head>
        <body>
          {{>nav}}
          <main>
            {{$content}}{{/content}}
          </main>
        </body>
        </html>

        """

    static let nav = """
        <nav>
          {{#links}}
          <a href="{{url}}">{{label}}</a>
          {{/links}}
        </nav>

        """

    static let article = """
        {{<layout}}
        {{$title}}{{title}} – Herald{{/title}}
        {{$content}}
            <article>
              <h1>{{title}}</h1>
            </article>
        {{/content}}
        {{/layout}}

        """

    @Test func loadsADirectoryAndRendersByName() throws {
        let directory = try TemporaryDirectory()
        try directory.write("layout.mustache", Self.layout)
        try directory.write("nav.mustache", Self.nav)
        try directory.write("article.mustache", Self.article)
        try directory.write("notes.txt", "{{#not a template")

        let library = try TemplateLibrary(directory: directory.path)
        #expect(try library.names == ["article", "layout", "nav"])
        let context: MustacheValue = [
            "title": "Hello & welcome",
            "links": [["url": "/", "label": "Home"], ["url": "/about", "label": "About"]],
        ]
        let expected = """
            <!doctype html>
            <html>
            <head><title>Hello &amp; welcome – Herald</title></head>
            <body>
              <nav>
                <a href="/">Home</a>
                <a href="/about">About</a>
              </nav>
              <main>
                <article>
                  <h1>Hello &amp; welcome</h1>
                </article>

              </main>
            </body>
            </html>

            """
        #expect(try library.render("article", context) == expected)

        var bytes: [UInt8] = []
        try library.render("article", context, into: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test func aBrokenFileFailsStartUpWithItsPosition() throws {
        let directory = try TemporaryDirectory()
        try directory.write("good.mustache", "fine")
        try directory.write("broken.mustache", "<ul>\n  <li>\n    {{#items}}{{name}}\n</ul>\n")
        do {
            _ = try TemplateLibrary(directory: directory.path)
            Issue.record("a broken template must not load")
        } catch {
            #expect(
                error.description == "\(directory.path)/broken.mustache:3:5: unclosed section 'items'")
        }
    }

    @Test func missingPartialsAreReportedAtValidation() throws {
        let directory = try TemporaryDirectory()
        try directory.write("page.mustache", "<body>\n  {{>header}}\n  {{<frame}}{{/frame}}\n</body>")
        try directory.write("header.mustache", "<h1>Herald</h1>\n")
        do {
            _ = try TemplateLibrary(directory: directory.path)
            Issue.record("a missing parent must be reported")
        } catch {
            #expect(error.description == "\(directory.path)/page.mustache:3:3: missing partial 'frame'")
        }

        // Without validation the spec's behaviour applies: a missing partial renders as nothing.
        let lenient = try TemplateLibrary(directory: directory.path, validateReferences: false)
        #expect(try lenient.render("page", [:]) == "<body>\n  <h1>Herald</h1>\n</body>")
        #expect(throws: TemplateError.self) { try lenient.validateReferences() }
    }

    @Test func inMemoryLibrariesValidateToo() {
        #expect(throws: TemplateError(.missingPartial("nope"), path: "a", line: 2, column: 1)) {
            _ = try TemplateLibrary(templates: ["a": "x\n{{>nope}}"])
        }
    }

    @Test func reloadOnChangePicksUpEditedFiles() throws {
        let directory = try TemporaryDirectory()
        try directory.write("page.mustache", "v1 {{>part}}")
        try directory.write("part.mustache", "part1")
        let library = try TemplateLibrary(directory: directory.path, reloadOnChange: true)
        let fixed = try TemplateLibrary(directory: directory.path)
        #expect(try library.render("page", [:]) == "v1 part1")

        try directory.write("part.mustache", "part two {{x}}")
        try directory.touch("part.mustache", secondsFromNow: 5)
        #expect(try library.render("page", ["x": "!"]) == "v1 part two !")
        #expect(try fixed.render("page", ["x": "!"]) == "v1 part1")

        // A file added later is found; an edit that breaks a template surfaces at render time.
        try directory.write("extra.mustache", "extra")
        #expect(try library.render("extra", [:]) == "extra")
        try directory.write("page.mustache", "v3 {{#open}}")
        try directory.touch("page.mustache", secondsFromNow: 10)
        #expect(throws: TemplateError.self) { try library.render("page", [:]) }
        try directory.write("page.mustache", "v4")
        try directory.touch("page.mustache", secondsFromNow: 15)
        #expect(try library.render("page", [:]) == "v4")
    }

    @Test func concurrentRendersShareOneLibrary() async throws {
        let library = try TemplateLibrary(templates: [
            "list": "{{#items}}<li>{{name}} {{>badge}}</li>{{/items}}", "badge": "[{{n}}]",
        ])
        let items: [MustacheValue] = (0..<50).map { ["name": "item <\($0)>", "n": $0] }
        let context: MustacheValue = ["items": .list(items)]
        let expected = try library.render("list", context)
        let results = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    var out: [UInt8] = []
                    for _ in 0..<200 {
                        out.removeAll(keepingCapacity: true)
                        guard (try? library.render("list", context, into: &out)) != nil,
                            String(decoding: out, as: UTF8.self) == expected
                        else { return false }
                    }
                    return true
                }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == Array(repeating: true, count: 8))
    }

    @Test func inheritanceReindentsBlocks() throws {
        let library = try TemplateLibrary(templates: [
            "layout":
                "<body>\n  <main>\n    {{$content}}\n    default\n    {{/content}}\n  </main>\n</body>\n",
            "page": "{{<layout}}\n{{$content}}\n<p>\n  {{text}}\n</p>\n{{/content}}\n{{/layout}}\n",
        ])
        #expect(
            try library.render("page", ["text": "multi\nline"])
                == "<body>\n  <main>\n    <p>\n      multi\nline\n    </p>\n  </main>\n</body>\n")
        #expect(
            try library.render("layout", [:]) == "<body>\n  <main>\n    default\n  </main>\n</body>\n")
    }
}
