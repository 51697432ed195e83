import Foundation
import Testing

@testable import Herald

/// The catalogs a translator edits (`Templates/messages/`): every string a template shows comes
/// from them, and both languages hold every key with the same placeholders.
@Suite struct MessageCatalogTests {
    static let templates = TestApp.repositoryRoot + "/Templates"

    static func catalog(_ language: InterfaceLanguage) throws -> [String: String] {
        let path = templates + "/messages/\(language.rawValue).messages"
        let source = try String(contentsOfFile: path, encoding: .utf8)
        return try MessageCatalogFile.parse(source, path: path)
    }

    @Test func bothCatalogsHoldEveryKeyWithTheSamePlaceholders() throws {
        let english = try Self.catalog(.english)
        let chinese = try Self.catalog(.traditionalChinese)
        #expect(english.count > 300)
        #expect(Set(english.keys) == Set(chinese.keys))
        for (key, text) in english {
            #expect(
                MessageText.placeholders(in: text) == MessageText.placeholders(in: chinese[key] ?? ""),
                "\(key): {placeholders} differ")
            #expect(!(chinese[key] ?? "").isEmpty, "\(key) is empty in zh-Hant")
        }
    }

    @Test func everyKeyATemplateUsesIsInBothCatalogs() throws {
        let used = try MessageCatalogs.templateKeys(in: Self.templates)
        #expect(used.count > 200)
        for language in InterfaceLanguage.allCases {
            let catalog = try Self.catalog(language)
            for key in used.sorted() { #expect(catalog[key] != nil, "{{t.\(key)}} is not in \(language.rawValue)") }
        }
    }

    /// A word typed into a template instead of `{{t.key}}` would be English on a Chinese page.
    @Test func templatesHoldNoWordsOfTheirOwn() throws {
        // Markdown samples in the editor's help, shown as code, and one path.
        let allowed: Set<String> = ["/media", "| a | b |"]
        for file in try FileManager.default.contentsOfDirectory(atPath: Self.templates)
        where file.hasSuffix(".mustache") && file != "feed.mustache" {
            var text = try String(contentsOfFile: Self.templates + "/" + file, encoding: .utf8)
            text = text.replacing(#/\{\{!.*?\}\}/#.dotMatchesNewlines(), with: "")
            text = text.replacing(#/\{\{\{?[^}]*\}?\}\}/#, with: "")
            text = text.replacing(#/<code>[^<]*</code>/#, with: "")
            for match in text.matches(of: #/>([^<>]*)</#) {
                let words = match.1.trimmingCharacters(in: .whitespacesAndNewlines)
                guard words.contains(where: \.isLetter), !allowed.contains(words) else { continue }
                Issue.record("\(file): “\(words)” is not in the catalogs")
            }
            for match in text.matches(of: #/(aria-label|placeholder|title|alt)="([^"]*)"/#)
            where match.2.contains(where: \.isLetter) {
                Issue.record("\(file): \(match.1)=“\(match.2)” is not in the catalogs")
            }
        }
    }

    /// A sentence typed into a script would be English on a Chinese page: the scripts read every
    /// word they write from the page (`data-word-…`, filled from the catalogs).
    @Test func scriptsHoldNoSentencesOfTheirOwn() throws {
        let scripts = TestApp.repositoryRoot + "/Public/js"
        var read = 0
        for file in try FileManager.default.contentsOfDirectory(atPath: scripts) where file.hasSuffix(".js") {
            let text = try String(contentsOfFile: scripts + "/" + file, encoding: .utf8)
            read += 1
            for match in text.matches(of: #/"([A-Z][a-z]+ [^"]*[.!?]|[♥♡][^"]*)"/#) {
                Issue.record("\(file): “\(match.1)” is not in the catalogs")
            }
        }
        #expect(read >= 3)
    }

    /// Keys Swift asks for by name (`context.text("…")`, `messages["…"]`, `messages.format("…"`) exist.
    @Test func everyKeySwiftNamesIsInTheCatalogs() throws {
        let english = try Self.catalog(.english)
        let sources = TestApp.repositoryRoot + "/Sources/Herald"
        let files = FileManager.default.enumerator(atPath: sources)?.compactMap { $0 as? String } ?? []
        var checked = 0
        for file in files where file.hasSuffix(".swift") {
            let text = try String(contentsOfFile: sources + "/" + file, encoding: .utf8)
            let named =
                #/(?:context\.text|messages\.format|rendering\.format)\("([a-z0-9_]+)"|(?:messages|rendering)\["([a-z0-9_]+)"/#
            for match in text.matches(of: named) {
                // A key made by joining ("cancel_" + the action's) is checked where it is made.
                guard let key = match.1 ?? match.2, !key.hasSuffix("_") else { continue }
                checked += 1
                #expect(english[String(key)] != nil, "\(file): “\(key)” is not in the catalogs")
            }
        }
        #expect(checked > 40)
    }

    @Test func aMissingKeyStopsStartUp() throws {
        let directory = NSTemporaryDirectory() + "herald-catalog-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory + "/messages", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try "<p>{{t.hello}} {{t.missing}}</p>".write(
            toFile: directory + "/page.mustache", atomically: true, encoding: .utf8)
        try "hello = Hello\nmissing = Missing\n".write(
            toFile: directory + "/messages/en.messages", atomically: true, encoding: .utf8)
        try "hello = 你好\n".write(toFile: directory + "/messages/zh-Hant.messages", atomically: true, encoding: .utf8)
        #expect(throws: MessageCatalogFile.Problem.self) {
            try MessageCatalogs(templatesDirectory: directory, siteLanguage: "en")
        }
        try "hello = 你好 {name}\nmissing = 缺少\n".write(
            toFile: directory + "/messages/zh-Hant.messages", atomically: true, encoding: .utf8)
        #expect(throws: MessageCatalogFile.Problem.self, "placeholders differ") {
            try MessageCatalogs(templatesDirectory: directory, siteLanguage: "en")
        }
        try "hello = 你好\nmissing = 缺少\n".write(
            toFile: directory + "/messages/zh-Hant.messages", atomically: true, encoding: .utf8)
        let catalogs = try MessageCatalogs(templatesDirectory: directory, siteLanguage: "zh-TW")
        #expect(catalogs.siteMessages["hello"] == "你好")
        #expect(catalogs[.english].translated("Hello") == "Hello")
        #expect(catalogs[.traditionalChinese].translated("Hello") == "你好")
    }

    @Test func placeholdersAreFilledByName() {
        #expect(MessageText.fill("為「{title}」按讚", ["title": "渡輪"]) == "為「渡輪」按讚")
        #expect(MessageText.fill("{a} and {b}", ["b": "2", "a": "1"]) == "1 and 2")
        #expect(MessageText.fill("{unknown} stays", ["a": "1"]) == "{unknown} stays")
        #expect(MessageText.fill("no brace {", ["a": "1"]) == "no brace {")
    }
}
