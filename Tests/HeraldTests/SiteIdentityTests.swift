import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// SPEC "Discovery": the site's name, description and language, from the environment (issue #20).
@Suite struct SiteIdentityTests {
    // MARK: Site identity

    @Test func theSiteIdentityNamesEveryPageAndTheFeeds() throws {
        let app = try TestApp(server: false, demo: false) {
            $0.site.name = "Bits & Bytes Daily"
            $0.site.description = "Small news, <well> told."
            $0.site.language = "fr-CA"
        }
        let slugs = try app.publish([SearchableArticle(title: "Bonjour", body: "x", section: "World News")])
        let slug = try #require(slugs["Bonjour"])
        let name = "Bits &amp; Bytes Daily"
        for path in ["/", "/articles/\(slug)", "/login", "/search?q=bonjour", "/sections/world-news", "/missing"] {
            let html = try app.client().get(path).text
            // SPEC third wave, "Language": `<html lang>` is the interface's language (English: Herald
            // has no French interface); the site's language is its articles' own (`lang` on each).
            #expect(html.contains("<html lang=\"en\">"), "\(path)")
            #expect(firstMatch(#"<title>(.*?)</title>"#, in: html)?.hasSuffix(" — \(name)") == true, "\(path)")
            #expect(html.contains("<a class=\"brand\" href=\"/\">\(name)</a>"), "\(path)")
            let footer = firstMatch(#"(?s)(<footer class="site-footer">.*?</footer>)"#, in: html) ?? ""
            #expect(footer.contains(name) && footer.contains("Small news, &lt;well&gt; told."), "\(path)")
            #expect(!html.contains(">Herald<"), "\(path)")
        }
        #expect(try app.client().get("/articles/\(slug)").text.contains("<title>Bonjour — \(name)</title>"))
        #expect(try app.client().get("/articles/\(slug)").text.contains("<article class=\"article\" lang=\"fr-CA\">"))
        #expect(metaName("description", in: try app.client().get("/").text) == ["Small news, &lt;well&gt; told."])
        let feed = try app.client().get("/feed.atom").text
        #expect(firstMatch(#"<title>(.*?)</title>"#, in: feed) == name)
        let sectionFeed = try app.client().get("/sections/world-news/feed.atom").text
        #expect(firstMatch(#"<title>(.*?)</title>"#, in: sectionFeed) == name + ": World News")

        // The defaults.
        let plain = try TestApp(server: false, demo: false)
        let html = try plain.client().get("/").text
        #expect(html.contains("<html lang=\"en\">"))
        #expect(html.contains("<a class=\"brand\" href=\"/\">Herald</a>"))
        #expect(firstMatch(#"<title>(.*?)</title>"#, in: try plain.client().get("/feed.atom").text) == "Herald")
    }

    @Test func theSiteIdentityComesFromTheEnvironmentAndFlagsWin() throws {
        let environment = [
            "HERALD_SITE_NAME": "Le Quotidien", "HERALD_SITE_DESCRIPTION": "Des nouvelles, chaque jour.",
            "HERALD_LANGUAGE": "fr",
        ]
        let (_, fromEnvironment) = try CommandLineArguments.parse(["serve"], environment: environment)
        #expect(fromEnvironment.site.name == "Le Quotidien")
        #expect(fromEnvironment.site.description == "Des nouvelles, chaque jour.")
        #expect(fromEnvironment.site.language == "fr")
        let (_, fromFlags) = try CommandLineArguments.parse(
            ["serve", "--site-name", "Die Zeitung", "--site-description", "Nachrichten.", "--language", "de-CH"],
            environment: environment)
        #expect(fromFlags.site.name == "Die Zeitung")
        #expect(fromFlags.site.description == "Nachrichten.")
        #expect(fromFlags.site.language == "de-CH")
        let (_, oneFlag) = try CommandLineArguments.parse(["serve", "--language", "fr-BE"], environment: environment)
        #expect(oneFlag.site.name == "Le Quotidien" && oneFlag.site.language == "fr-BE")
        for tag in ["en", "zh-Hant", "sr-Latn-RS", "es-419", "EN-gb"] {
            #expect(throws: Never.self, "\(tag)") {
                try CommandLineArguments.parse(["serve", "--language", tag], environment: [:])
            }
        }

        // What was parsed is what the pages say.
        let app = try TestApp(server: false, demo: false) { $0.site = fromEnvironment.site }
        let html = try app.client().get("/").text
        #expect(html.contains("<html lang=\"en\">"), "the interface is English; the site's articles are fr")
        #expect(html.contains("<a class=\"brand\" href=\"/\">Le Quotidien</a>"))
        #expect(html.contains(" — Le Quotidien</title>"))
        #expect(html.contains("Des nouvelles, chaque jour."))
    }

    static let invalidIdentities: [([String], [String: String])] = [
        (["serve", "--site-name", ""], [:]),
        (["serve", "--site-name", "   "], [:]),
        (["serve", "--site-name", String(repeating: "n", count: 81)], [:]),
        (["serve", "--site-name", "bell\u{7}name"], [:]),
        (["serve", "--site-name"], [:]),
        (["serve", "--site-description", String(repeating: "d", count: 301)], [:]),
        (["serve", "--language", "en_US!"], [:]),
        (["serve", "--language", "en_US"], [:]),
        (["serve", "--language", ""], [:]),
        (["serve", "--language", "e"], [:]),
        (["serve", "--language", "en-"], [:]),
        (["serve", "--language", "fr CA"], [:]),
        (["serve", "--language", "en-thisistoolong"], [:]),
        (["serve", "--language", "<script>"], [:]),
        (["serve"], ["HERALD_SITE_NAME": " \t "]),
        (["serve"], ["HERALD_SITE_NAME": String(repeating: "n", count: 81)]),
        (["serve"], ["HERALD_SITE_DESCRIPTION": String(repeating: "d", count: 301)]),
        (["serve"], ["HERALD_LANGUAGE": "en_US!"]),
        (["serve"], ["HERALD_LANGUAGE": "français"]),
    ]

    @Test(arguments: invalidIdentities)
    func anInvalidSiteIdentityIsAUsageError(arguments: [String], environment: [String: String]) {
        #expect(throws: UsageError.self, "\(arguments) \(environment)") {
            try CommandLineArguments.parse(arguments, environment: environment)
        }
    }
}
