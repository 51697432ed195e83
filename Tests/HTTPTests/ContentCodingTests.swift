import Testing

@testable import HTTP

/// Negotiation (RFC 9110 §12.5.3) and the three codecs with their templates, checked by each
/// coding's own decoder (the end-to-end tests decode with Python's and Chromium's).
@Suite struct ContentCodingTests {
    @Test(
        arguments: [
            // A browser's header: the server's order breaks the tie.
            ("gzip, deflate, br, zstd", ContentCoding.br),
            ("gzip, deflate, zstd", .zstd),
            ("gzip", .gzip),
            ("GZIP", .gzip),
            ("x-gzip", .gzip),
            // q-values decide before the server's order does.
            ("br;q=0.5, gzip;q=0.8", .gzip),
            ("br;q=0.5, zstd;q=0.9, gzip;q=0.8", .zstd),
            ("br;q=1.0, zstd;q=1, gzip;q=1.000", .br),
            ("br ; q=0.3 , gzip ; q=0.2", .br),
            // q=0 refuses; `*` covers what is not named.
            ("br;q=0, gzip", .gzip),
            ("br;q=0, zstd;q=0, gzip;q=0", nil),
            ("*", .br),
            ("*;q=0.5, br;q=0", .zstd),
            ("gzip;q=0.1, *;q=0.2", .br),
            ("*;q=0", nil),
            // Identity preferred to everything offered, or nothing offered.
            ("identity", nil),
            ("identity;q=1, gzip;q=0.5", nil),
            ("deflate", nil),
            ("", nil),
            // Malformed items are skipped, never an error.
            ("br;q=2, gzip", .gzip),
            ("br;q=abc, zstd;q=0.1234, gzip;q=.5", nil),
            ("br;q, gzip;q=0.5", .gzip),
            (";;;,,,", nil),
            ("b r, gzip", .gzip),
            ("\u{1}\u{7F}é, zstd", .zstd),
            ("br;level=11", .br),
        ] as [(String, ContentCoding?)])
    func negotiation(header: String, expected: ContentCoding?) {
        #expect(AcceptEncoding(header).preferred() == expected, "\(header)")
    }

    @Test func noHeaderAndOverlongHeadersAreIdentity() {
        #expect(AcceptEncoding(nil).preferred() == nil)
        #expect(AcceptEncoding(nil).accepts(.identity))
        #expect(AcceptEncoding(String(repeating: "x, ", count: 400) + "br").preferred() == nil)
    }

    @Test func refusingIdentity() {
        #expect(!AcceptEncoding("identity;q=0, br").accepts(.identity))
        #expect(!AcceptEncoding("*;q=0").accepts(.identity))
        #expect(AcceptEncoding("identity;q=0, br").preferred() == .br)
    }

    @Test(arguments: ["0", "0.", "0.5", "0.123", "1", "1.0", "1.000"])
    func wellFormedQValues(text: String) {
        #expect(AcceptEncoding.qValue(Substring(text)) != nil)
    }

    @Test(arguments: ["", "2", "1.5", "1.001", "0.1234", ".5", "-0", "0,5", "q"])
    func malformedQValues(text: String) {
        #expect(AcceptEncoding.qValue(Substring(text)) == nil)
    }

    @Test func codecsRoundTrip() throws {
        let text = Array(String(repeating: "Herald news ✓ ", count: 500).utf8)
        for quality: Int32 in [1, 4, 11] {
            let encoded = try #require(BrotliCodec.compress(text, quality: quality))
            #expect(BrotliCodec.decompress(encoded) == text)
        }
        let zstd = ZstdCodec(level: 3)
        for _ in 0..<3 {
            let encoded = try #require(zstd.compress(text))
            #expect(encoded.count < text.count / 5)
            #expect(ZstdCodec.decompress(encoded) == text)
        }
        #expect(BrotliCodec.decompress(Array("not brotli at all".utf8)) == nil)
        #expect(ZstdCodec.decompress(Array("not zstd".utf8)) == nil)
    }

    /// A page like Herald's: a header with a name, then many forms each with the same token.
    static func page(forms: Int, kinds: [HoledPage.Kind]) throws -> HoledPage {
        var bytes = Array("<!doctype html><header>Signed in as ".utf8)
        var holes = [HoledPage.Hole(offset: bytes.count, kind: 1)]
        bytes += kinds[1].filler
        bytes += Array("</header>\n".utf8)
        for index in 0..<forms {
            bytes += Array("<p>Comment \(index): a reader wrote something about the story.</p>\n".utf8)
            bytes += Array("<form method=\"post\"><input type=\"hidden\" name=\"csrf_token\" value=\"".utf8)
            holes.append(HoledPage.Hole(offset: bytes.count, kind: 0))
            bytes += kinds[0].filler
            bytes += Array("\"><button>Report</button></form>\n".utf8)
        }
        bytes += Array("</html>\n".utf8)
        return try #require(HoledPage(bytes: bytes, holes: holes, kinds: kinds))
    }

    static let kinds: [HoledPage.Kind] = {
        let widths = [43, 49, 90]
        return zip(widths, HoleFillers.fillers(widths: widths)!).map { HoledPage.Kind(width: $0, filler: $1) }
    }()

    /// Every coding's template, filled with random values, decodes to the page with those values,
    /// for small pages and for one past deflate's 32 KB window.
    @Test(arguments: [ContentCoding.br, .zstd, .gzip], [0, 3, 700])
    func templatesDecodeToThePageWithTheReadersValues(coding: ContentCoding, forms: Int) throws {
        let page = try Self.page(forms: forms, kinds: Self.kinds)
        let template = try #require(PageEncoder().template(page, as: coding))
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        for _ in 0..<5 {
            let values = Self.kinds.map { kind in (0..<kind.width).map { _ in letters.randomElement()! } }
            var expected = page.bytes
            for hole in page.holes {
                expected.replaceSubrange(
                    hole.offset..<hole.offset + page.kinds[hole.kind].width, with: values[hole.kind])
            }
            let filled = try #require(template.filled(values))
            let decoded: [UInt8]?
            switch coding {
            case .br: decoded = BrotliCodec.decompress(filled)
            case .zstd: decoded = ZstdCodec.decompress(filled)
            default: decoded = Gzip.decompress(filled)
            }
            #expect(decoded == expected)
        }
        // Compressed once, the page is still much smaller than itself.
        #expect(template.count < page.bytes.count / 3 + 200)
    }

    @Test func aValueOfAnotherWidthIsRefused() throws {
        let page = try Self.page(forms: 2, kinds: Self.kinds)
        let template = try #require(PageEncoder().template(page, as: .br))
        #expect(template.filled([[65], Self.kinds[1].filler, Self.kinds[2].filler]) == nil)
    }

    @Test func aPageHoldingFillerBytesOutsideItsHolesIsNoTemplate() {
        let bytes = Array("text with a control character \u{1} in it".utf8)
        #expect(HoledPage(bytes: bytes, holes: [], kinds: Self.kinds) == nil)
    }

    @Test func fillersShareNoPairOfBytes() throws {
        let fillers = try #require(HoleFillers.fillers(widths: [43, 49, 90, 120]))
        var pairs = Set<[UInt8]>()
        for filler in fillers {
            for index in 0..<(filler.count - 1) {
                #expect(pairs.insert([filler[index], filler[index + 1]]).inserted)
            }
        }
        let ends = fillers.flatMap { [$0.first!, $0.last!] }
        #expect(Set(ends).count == ends.count)
        #expect(fillers.allSatisfy { $0.allSatisfy { HoleFillers.alphabet.contains($0) } })
    }

    /// The middleware: images are never compressed again; text is, in the preferred coding, and
    /// served from a precompressed body when the response has one.
    @Test func theMiddlewareCompressesTextNotImages() throws {
        let encoder = PageEncoder()
        let compression = Compression<Void>(encoder: encoder)
        let text = Array(String(repeating: "<p>Herald news</p>\n", count: 200).utf8)
        func respond(_ contentType: String, accept: String?, precompressed: Precompressed? = nil) throws -> Response {
            var context: Void = ()
            let headers = HTTPHeaders(accept.map { [("Accept-Encoding", $0)] } ?? [])
            return try compression.handle(Request(method: .get, target: "/", headers: headers), context: &context) {
                _, _ in
                var response = Response(
                    status: .ok, headers: HTTPHeaders([("Content-Type", contentType)]), body: text)
                response.precompressed = precompressed
                return response
            }
        }
        let png = try respond("image/png", accept: "br, gzip")
        #expect(png.headers["Content-Encoding"] == nil && png.body == text && png.headers["Vary"] == nil)
        let html = try respond("text/html; charset=utf-8", accept: "gzip, deflate, br, zstd")
        #expect(html.headers["Content-Encoding"] == "br" && html.headers["Vary"] == "Accept-Encoding")
        #expect(BrotliCodec.decompress(html.body) == text)
        #expect(encoder.counts.count(.compressedPerResponse, .br) == 1)
        let plain = try respond("application/json", accept: nil)
        #expect(
            plain.headers["Content-Encoding"] == nil && plain.body == text && plain.headers["Vary"] == "Accept-Encoding"
        )
        let served = try respond(
            "text/html", accept: "zstd", precompressed: Precompressed { $0 == .zstd ? [1, 2, 3] : nil })
        #expect(served.body == [1, 2, 3] && served.headers["Content-Encoding"] == "zstd")
        #expect(encoder.counts.count(.servedFromTemplate, .zstd) == 1)
        #expect(encoder.counts.count(.compressedPerResponse, .zstd) == 0)
    }
}
