import HTTP
import Testing

@testable import Herald

/// Slugs keep letters and digits in any script (SPEC third wave, "Language"; issue #33).
@Suite struct SlugTests {
    @Test func latinIsFoldedToLowercaseASCII() {
        #expect(Slug.make(from: "Café Zoë") == "cafe-zoe")
        #expect(Slug.make(from: "Zoë Márquez’s café opens") == "zoe-marquezs-cafe-opens")
        #expect(Slug.make(from: "ＦＵＬＬ width ２０２６") == "full-width-2026")
    }

    @Test func otherScriptsAreKeptAsWritten() {
        #expect(Slug.make(from: "渡輪班次延長至午夜") == "渡輪班次延長至午夜")
        #expect(Slug.make(from: "颱風「白鷺」逼近　氣象署發布警報") == "颱風-白鷺-逼近-氣象署發布警報")
        #expect(Slug.make(from: "MRT環狀線 12月通車") == "mrt環狀線-12月通車")
        #expect(Slug.make(from: "Новости дня") == "новости-дня")
        // Marks that make another letter stay: が is not か.
        #expect(Slug.make(from: "がんばれ") == "がんばれ")
        #expect(Slug.make(from: "〇〇七") == "〇〇七")
    }

    @Test func aTitleWithoutLettersOrDigitsHasNoSlug() {
        #expect(Slug.make(from: "！？……") == nil)
        #expect(Slug.make(from: "★ — ★") == nil)
        #expect(Slug.make(from: "") == nil)
        #expect(Slug.codePoints(of: "★") == "u2605")
        #expect(Slug.codePoints(of: "！ ？") == "uff01-uff1f")
    }

    /// At most 80 UTF-8 bytes, never half a character: 26 Chinese characters.
    @Test func cappedInBytesOnACharacterBoundary() throws {
        let chinese = try #require(Slug.make(from: String(repeating: "渡輪班次", count: 20)))
        #expect(chinese.utf8.count <= Slug.maximumBytes)
        #expect(chinese.count == 26)
        #expect(chinese.hasPrefix("渡輪班次渡輪"))
        let latin = try #require(Slug.make(from: String(repeating: "long ", count: 50)))
        #expect(latin.utf8.count <= Slug.maximumBytes && !latin.hasSuffix("-"))
    }

    @Test func onlyTheOldGenericSlugsOfTitlesWithoutASCIIMove() {
        #expect(OldSlugs.isGeneric("article", word: "article"))
        #expect(OldSlugs.isGeneric("article-12", word: "article"))
        #expect(!OldSlugs.isGeneric("article-", word: "article"))
        #expect(!OldSlugs.isGeneric("articles", word: "article"))
        #expect(!OldSlugs.isGeneric("article-2b", word: "article"))
        #expect(OldSlugs.hadASCIIWord("Article 2"))
        #expect(OldSlugs.hadASCIIWord("北京 ２０２６"))
        #expect(!OldSlugs.hadASCIIWord("渡輪班次延長至午夜"))
    }

    @Test func locationsAreASCII() {
        #expect(PercentEncoding.uri(fromIRI: "/articles/渡輪#like") == "/articles/%E6%B8%A1%E8%BC%AA#like")
        #expect(PercentEncoding.uri(fromIRI: "/search?q=a b&x=%41") == "/search?q=a%20b&x=%41")
        #expect(PercentEncoding.uri(fromIRI: "/plain-ascii?page=2") == "/plain-ascii?page=2")
    }
}
