import Foundation
import Testing

@testable import Herald

/// One Atom entry whose title (and content) is `title`, behind an optional XML declaration.
private func atom(encoding: String?, title: String, doctype: String = "") -> String {
    let declaration = encoding.map { "<?xml version=\"1.0\" encoding=\"\($0)\"?>\n" } ?? ""
    return declaration + doctype + """
        <feed xmlns="http://www.w3.org/2005/Atom"><title>Wire</title>
        <entry><id>tag:wire.example,2024:1</id><title>\(title)</title>
        <updated>2024-03-01T12:30:00Z</updated><content type="text">\(title)</content></entry></feed>
        """
}

private func utf16(_ text: String, bigEndian: Bool, byteOrderMark: Bool) -> [UInt8] {
    let units = (byteOrderMark ? [0xFEFF] : []) + Array(text.utf16)
    return units.flatMap { unit in
        bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
    }
}

private func utf32(_ text: String, bigEndian: Bool) -> [UInt8] {
    text.unicodeScalars.flatMap { scalar in
        let bytes = (0..<4).map { UInt8(truncatingIfNeeded: scalar.value >> (8 * $0)) }
        return bigEndian ? bytes.reversed() : bytes
    }
}

private func reason(_ bytes: [UInt8]) -> String? {
    do {
        _ = try FeedParser.parse(bytes, name: "f.xml")
        return nil
    } catch {
        return error.reason
    }
}

private let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Feeds")

/// Issue #14: the encoding is decided once (byte-order mark, byte pattern, declaration, UTF-8), the
/// feed is transcoded to UTF-8, and every guard and parser reads that.
@Suite struct FeedEncodingTests {
    static let title = "Café “Zoë” — 5 € 日本 𝄞"

    @Test func utf7DeclaredInUTF16WithoutAMarkIsRefusedNotCrashed() throws {
        let data = try Data(contentsOf: fixtures.appendingPathComponent("broken-utf7-in-utf16le.xml"))
        let refusal = try #require(reason(Array(data)))
        #expect(refusal.contains("UTF-7") && refusal.contains("not supported"), "\(refusal)")
    }

    @Test(arguments: [(false, true), (false, false), (true, true), (true, false)])
    func utf16ImportsWithNonASCIIIntact(bigEndian: Bool, byteOrderMark: Bool) throws {
        for declared in ["UTF-16", nil] {
            let bytes = utf16(
                atom(encoding: declared, title: Self.title), bigEndian: bigEndian, byteOrderMark: byteOrderMark)
            let articles = try FeedParser.parse(bytes, name: "f.xml")
            #expect(articles.map(\.title) == [Self.title], "declared \(declared ?? "nothing")")
            #expect(articles.map(\.body) == [Self.title])
        }
    }

    @Test func isoLatin1AndWindows1252ImportWithTheirAccentsEurosAndQuotes() throws {
        // "Caf\xE9 \xE0 la cr\xE8me" in ISO-8859-1; in Windows-1252 also 0x80 €, 0x93/0x94 “ ”, 0x92 ’.
        let latin1 = Array(atom(encoding: "ISO-8859-1", title: "TITLE").utf8)
            .replacingFirst(
                Array("TITLE".utf8),
                with: Array("Caf".utf8) + [0xE9, 0x20, 0xE0] + Array(" la cr".utf8) + [0xE8] + Array("me".utf8))
        #expect(try FeedParser.parse(latin1, name: "f.xml").map(\.title) == ["Café à la crème"])

        let cp1252Title: [UInt8] =
            [0x93] + Array("Caf".utf8) + [0xE9, 0x94, 0x20, 0x80] + Array("5, it".utf8) + [0x92, 0x73]
        for label in ["windows-1252", "CP1252"] {
            let bytes = Array(atom(encoding: label, title: "TITLE").utf8).replacingFirst(
                Array("TITLE".utf8), with: cp1252Title)
            #expect(try FeedParser.parse(bytes, name: "f.xml").map(\.title) == ["“Café” €5, it’s"], "\(label)")
        }
    }

    @Test func anInternalEntityInUTF16IsRefusedLikeItsUTF8Twin() throws {
        let feed = atom(encoding: "UTF-16", title: "Hi &e;", doctype: "<!DOCTYPE feed [<!ENTITY e \"there\">]>\n")
        let twin = try #require(reason(Array(feed.replacingOccurrences(of: "UTF-16", with: "UTF-8").utf8)))
        #expect(twin.contains("<!ENTITY"))
        for (bigEndian, byteOrderMark) in [(false, false), (false, true), (true, false), (true, true)] {
            let bytes = utf16(feed, bigEndian: bigEndian, byteOrderMark: byteOrderMark)
            #expect(reason(bytes) == twin, "big endian \(bigEndian), mark \(byteOrderMark)")
        }
    }

    @Test func aNULAfterTranscodingIsRefused() throws {
        let feed = atom(encoding: "UTF-16", title: "a\u{0}b")
        for (bigEndian, byteOrderMark) in [(false, false), (false, true), (true, false), (true, true)] {
            let refusal = reason(utf16(feed, bigEndian: bigEndian, byteOrderMark: byteOrderMark))
            #expect(refusal?.contains("NUL") == true, "\(refusal ?? "accepted")")
        }
        #expect(reason(Array(atom(encoding: nil, title: "a\u{0}b").utf8))?.contains("NUL") == true)
    }

    @Test func unsupportedEncodingsAreRefusedByName() throws {
        let feed = atom(encoding: "UTF-32", title: "t")
        for bytes in [
            utf32(feed, bigEndian: false), utf32(feed, bigEndian: true),
            utf32("\u{FEFF}" + feed, bigEndian: false), utf32("\u{FEFF}" + feed, bigEndian: true),
        ] {
            #expect(reason(bytes)?.contains("UTF-32 is not supported") == true)
        }
        // EBCDIC's "<?xm", and declarations of encodings Herald does not read, in every byte layout.
        #expect(reason([0x4C, 0x6F, 0xA7, 0x94, 0x93, 0x40])?.contains("EBCDIC") == true)
        for name in ["UTF-7", "Shift_JIS", "EBCDIC-US", "IBM037", "x-bogus"] {
            let declared = atom(encoding: name, title: "t")
            #expect(reason(Array(declared.utf8))?.contains("“\(name)” is not supported") == true, "\(name)")
            #expect(reason(utf16(declared, bigEndian: true, byteOrderMark: true))?.contains("“\(name)”") == true)
            #expect(reason(utf16(declared, bigEndian: false, byteOrderMark: false))?.contains("“\(name)”") == true)
        }
        // UTF-16 declared by a file that is not: libxml2 would have switched to it mid-declaration.
        #expect(reason(Array(atom(encoding: "UTF-16", title: "t").utf8))?.contains("declares UTF-16") == true)
    }

    @Test func brokenUTF16AndUTF8AreRefused() throws {
        let feed = utf16(atom(encoding: "UTF-16", title: "t"), bigEndian: false, byteOrderMark: true)
        #expect(reason(feed.dropLast())?.contains("half a character") == true)
        let lone = utf16(atom(encoding: "UTF-16", title: "t"), bigEndian: false, byteOrderMark: true)
            .replacingFirst([UInt8(ascii: "t"), 0, UInt8(ascii: "<"), 0], with: [0x00, 0xD8, UInt8(ascii: "<"), 0])
        #expect(reason(lone)?.contains("not valid UTF-16") == true)
        let latin1Undeclared = Array(atom(encoding: nil, title: "TITLE").utf8).replacingFirst(
            Array("TITLE".utf8), with: [0xE9])
        #expect(reason(latin1Undeclared)?.contains("not valid UTF-8") == true)
        // A second mark would hide a declaration of UTF-7 from the check but not from libxml2.
        let utf7 = atom(encoding: "UTF-7", title: "t")
        for bytes in [
            [0xEF, 0xBB, 0xBF] + Array(("\u{FEFF}" + utf7).utf8),
            utf16("\u{FEFF}" + utf7, bigEndian: true, byteOrderMark: true),
        ] {
            #expect(throws: FeedIssue.self) { try FeedEncoding.utf8Text(of: bytes) }
            #expect(reason(bytes)?.contains("two byte-order marks") == true)
        }
    }

    @Test func utf16JSONFeedIsTranscoded() throws {
        let json = """
            {"version": "https://jsonfeed.org/version/1.1", "items": [{"id": "1", "title": "\(Self.title)",
            "content_text": "x", "date_published": "2024-03-01T12:30:00Z"}]}
            """
        for (bigEndian, byteOrderMark) in [(false, true), (true, true), (false, false)] {
            let articles = try FeedParser.parse(
                utf16(json, bigEndian: bigEndian, byteOrderMark: byteOrderMark), name: "f.json")
            #expect(articles.map(\.title) == [Self.title])
        }
        #expect(
            try FeedParser.parse([0xEF, 0xBB, 0xBF] + Array(json.utf8), name: "f.json").map(\.title) == [Self.title])
    }

    // MARK: What libxml2 is handed

    @Test func libxml2IsHandedUTF8WhoseDeclarationSaysSo() throws {
        let feed = "<?xml version=\"1.0\"\n  encoding='utf-16' standalone=\"yes\"?>\n<rss/>"
        let text = try FeedEncoding.utf8Text(of: utf16(feed, bigEndian: false, byteOrderMark: true))
        // Same line count, so libxml2's line numbers in error messages still match the file.
        #expect(
            String(decoding: text, as: UTF8.self)
                == "<?xml version=\"1.0\" encoding=\"UTF-8\" standalone=\"yes\"\n?>\n<rss/>")
        #expect(
            try FeedEncoding.utf8Text(of: Array("<?xml version=\"1.0\"?><rss/>".utf8))
                == Array("<?xml version=\"1.0\" encoding=\"UTF-8\"?><rss/>".utf8))
        // Not a declaration: left alone.
        #expect(
            try FeedEncoding.utf8Text(of: Array("<?xml-stylesheet href=\"a\"?><rss/>".utf8))
                == Array("<?xml-stylesheet href=\"a\"?><rss/>".utf8))
    }

    @Test func aDeclarationHeraldCannotReadIsRefusedNotLeftToLibxml2() throws {
        for declaration in [
            "<?xml version=\"1.0\" encoding=\"UTF-7\" <rss/>",  // not closed: libxml2 switches before noticing
            "<?xml version=\"1.0\"encoding=\"UTF-7\"?>",  // no space: libxml2 recovers and switches
            "<?xml version=\"1.0\" encoding=UTF-7?>",
            "<?xml version=\"1.0\" encoding=\"UTF-8\" encoding=\"UTF-7\"?>",
            "<?xml encoding=\"UTF-8\"?>",
            "<?xml version=\"1.0\" encoding=\"UTF 8\"?>",
            "<?xml version=\"2.0\"?>",
            "<?xml version=\"1.0\" standalone=\"maybe\"?>",
        ] {
            let refusal = reason(Array((declaration + "<rss version=\"2.0\"><channel/></rss>").utf8))
            #expect(
                refusal?.contains("XML declaration") == true || refusal?.contains("UTF-7") == true,
                "\(declaration): \(refusal ?? "accepted")")
        }
    }
}

extension Array where Element == UInt8 {
    /// The bytes with the first occurrence of `old` replaced.
    fileprivate func replacingFirst(_ old: [UInt8], with new: [UInt8]) -> [UInt8] {
        guard let range = firstRange(of: old) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: new)
        return copy
    }
}
