import Foundation
import Mustache
import Testing

@Suite struct ErrorTests {
    private func compileError(_ source: String) -> TemplateError? {
        do {
            _ = try Template(source, path: "Templates/article.mustache")
            return nil
        } catch {
            return error
        }
    }

    private func expectError(
        _ source: String, _ description: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(compileError(source)?.description == description, sourceLocation: sourceLocation)
    }

    @Test func unclosedSectionPointsAtItsOpeningTag() {
        expectError(
            "<h1>{{title}}</h1>\n<p>\n  {{#likes}}\n  {{count}}\n</p>\n",
            "Templates/article.mustache:3:3: unclosed section 'likes'")
        let error = compileError("{{#a}}\n{{^b}}\n{{/b}}")
        #expect(error?.kind == .unclosedSection("a"))
        #expect(error?.line == 1)
        #expect(error?.column == 1)
    }

    @Test func innermostUnclosedSectionIsReported() {
        expectError(
            "{{#outer}}\n  x {{#inner}}", "Templates/article.mustache:2:5: unclosed section 'inner'")
    }

    @Test func unclosedParentAndBlock() {
        expectError(
            "{{<layout}}\n{{$content}}hi\n{{/layout}}",
            "Templates/article.mustache:3:1: mismatched closing tag 'layout', expected 'content'")
        expectError("{{<layout}}\n", "Templates/article.mustache:1:1: unclosed section 'layout'")
    }

    @Test func mismatchedClosingTagPointsAtTheClosingTag() {
        expectError(
            "{{#items}}\n  <li>{{name}}</li>\n{{/itemz}}\n",
            "Templates/article.mustache:3:1: mismatched closing tag 'itemz', expected 'items'")
    }

    @Test func unexpectedClosingTag() {
        expectError(
            "one\ntwo {{/items}}", "Templates/article.mustache:2:5: unexpected closing tag 'items'")
    }

    @Test func unclosedTag() {
        expectError("Hello {{name", "Templates/article.mustache:1:7: unclosed tag")
        // The next tag's closing delimiter must not be taken for this one's.
        expectError("a\nb\n  {{name\n{{other}}\n", "Templates/article.mustache:3:3: unclosed tag")
        expectError("{{{raw}}", "Templates/article.mustache:1:1: unclosed tag")
        expectError("{{! never closed", "Templates/article.mustache:1:1: unclosed tag")
    }

    @Test func unclosedTagAfterDelimiterChange() {
        // `}}` no longer closes anything once the delimiters are `<% %>`.
        expectError("{{=<% %>=}}\nline <%name}}\n", "Templates/article.mustache:2:6: unclosed tag")
        expectError(
            "first\n{{=<% %>=}}\n<%#items%>\n{{#ignored}}\n",
            "Templates/article.mustache:3:1: unclosed section 'items'")
    }

    @Test func badDelimiterChange() {
        expectError("x {{=<%=}}", "Templates/article.mustache:1:3: bad delimiter change")
        expectError("{{= a b c =}}", "Templates/article.mustache:1:1: bad delimiter change")
        expectError("\n{{=<% %>}}", "Templates/article.mustache:2:1: unclosed tag")
    }

    @Test func invalidNames() {
        expectError("{{a b}}", "Templates/article.mustache:1:1: invalid tag name 'a b'")
        expectError("x\n {{a..b}}", "Templates/article.mustache:2:2: invalid tag name 'a..b'")
        expectError("{{#}}{{/}}", "Templates/article.mustache:1:1: invalid tag name ''")
    }

    @Test func columnsCountCharactersNotBytes() {
        expectError("Grüße, 日本 {{#x}}", "Templates/article.mustache:1:11: unclosed section 'x'")
    }

    @Test func runawayRecursionFailsInsteadOfCrashing() throws {
        let library = try TemplateLibrary(templates: ["loop": "x{{>loop}}"])
        #expect(throws: TemplateError.self) { try library.render("loop", [:]) }
        do {
            _ = try library.render("loop", [:])
        } catch {
            #expect(error.kind == .nestingTooDeep)
            #expect(error.description == "loop:1:2: templates nested too deeply")
        }
    }

    /// The depth limit must trip well before a small thread stack runs out, even in debug builds
    /// whose frames are larger, with sections and partials interleaved.
    @Test func runawayRecursionFitsInASmallThreadStack() async {
        let failedCleanly = await withCheckedContinuation { continuation in
            let thread = Thread {
                do throws(TemplateError) {
                    let library = try TemplateLibrary(templates: ["loop": "{{#a}}<{{>loop}}>{{/a}}"])
                    _ = try library.render("loop", ["a": true])
                    continuation.resume(returning: false)
                } catch {
                    continuation.resume(returning: error.kind == .nestingTooDeep)
                }
            }
            thread.stackSize = 512 * 1024
            thread.start()
        }
        #expect(failedCleanly)
    }

    @Test func deeplyNestedSectionsAreRefused() {
        let source = String(repeating: "{{#a}}", count: 1000) + String(repeating: "{{/a}}", count: 1000)
        #expect(compileError(source)?.kind == .nestingTooDeep)
    }

    @Test func missingTemplateByName() throws {
        let library = try TemplateLibrary(templates: ["a": "x"])
        #expect(throws: TemplateError(.missingTemplate("b"), path: "templates")) {
            try library.render("b", [:])
        }
    }
}
