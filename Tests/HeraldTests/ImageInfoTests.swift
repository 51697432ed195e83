import HTTP
import TestSupport
import Testing

@testable import Herald

/// Image headers built byte by byte (no decoder or download needed: Herald reads headers only).
enum TestImages {
    static func be16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }
    static func be32(_ value: Int) -> [UInt8] { be16(value >> 16) + be16(value & 0xFFFF) }
    static func le16(_ value: Int) -> [UInt8] { [UInt8(value & 0xFF), UInt8(value >> 8 & 0xFF)] }
    static func le32(_ value: Int) -> [UInt8] { le16(value & 0xFFFF) + le16(value >> 16) }

    /// The PNG signature and an IHDR chunk (8-bit RGBA), then an empty IEND: enough for any reader
    /// of headers, and what a "zip bomb" PNG looks like before its tiny compressed data.
    static func png(width: Int, height: Int) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + be32(13) + Array("IHDR".utf8) + be32(width)
            + be32(height) + [8, 6, 0, 0, 0] + [0x12, 0x34, 0x56, 0x78] + be32(0) + Array("IEND".utf8)
            + [0xAE, 0x42, 0x60, 0x82]
    }

    static func segment(_ marker: UInt8, _ payload: [UInt8]) -> [UInt8] {
        [0xFF, marker] + be16(payload.count + 2) + payload
    }

    /// SOI, a JFIF APP0, an optional EXIF APP1 with an orientation, a quantisation table, a
    /// Huffman table (0xC4, which is not a frame header), the frame header `sof`, then scan data.
    static func jpeg(width: Int, height: Int, sof: UInt8 = 0xC0, orientation: Int? = nil, bigEndianExif: Bool = false)
        -> [UInt8]
    {
        var bytes: [UInt8] = [0xFF, 0xD8]
        bytes += segment(0xE0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
        if let orientation {
            let u16 = bigEndianExif ? be16 : le16
            let u32 = bigEndianExif ? be32 : le32
            let tiff: [UInt8] =
                (bigEndianExif ? [0x4D, 0x4D, 0x00, 0x2A] : [0x49, 0x49, 0x2A, 0x00]) + u32(8) + u16(2)
                + u16(0x010F) + u16(2) + u32(4) + Array("Cam\0".utf8)  // Make, an ASCII tag first
                + u16(0x0112) + u16(3) + u32(1) + u16(orientation) + u16(0) + u32(0)
            bytes += segment(0xE1, Array("Exif".utf8) + [0, 0] + tiff)
        }
        bytes += segment(0xDB, [0] + [UInt8](repeating: 1, count: 64))
        bytes += segment(0xC4, [0] + [UInt8](repeating: 0, count: 16))
        bytes += [0xFF, 0xFF]  // fill bytes before a marker are allowed
        bytes += segment(sof, [8] + be16(height) + be16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1])
        bytes += segment(0xDA, [3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0]) + [0x12, 0x34, 0xFF, 0xD9]
        return bytes
    }

    static func riff(_ chunk: String, _ payload: [UInt8]) -> [UInt8] {
        let body = Array("WEBP".utf8) + Array(chunk.utf8) + le32(payload.count) + payload
        return Array("RIFF".utf8) + le32(body.count) + body
    }

    static func webpLossy(width: Int, height: Int) -> [UInt8] {
        riff("VP8 ", [0x30, 0x01, 0x00, 0x9D, 0x01, 0x2A] + le16(width) + le16(height) + [0x0E, 0xC0, 0xFE, 0x25])
    }

    static func webpLossless(width: Int, height: Int) -> [UInt8] {
        riff("VP8L", [0x2F] + le32((width - 1) | (height - 1) << 14) + [0x88, 0xFE, 0x07, 0x00])
    }

    static func webpExtended(width: Int, height: Int) -> [UInt8] {
        let minusOne = { (value: Int) -> [UInt8] in Array(le32(value - 1).prefix(3)) }
        return riff("VP8X", [0x10, 0, 0, 0] + minusOne(width) + minusOne(height))
    }
}

@Suite struct ImageInfoTests {
    private func refusal(_ bytes: [UInt8], limits: ImageInfo.Limits = ImageInfo.Limits()) -> ImageInfo.Refusal? {
        do {
            _ = try ImageInfo.recognise(bytes, limits: limits)
            return nil
        } catch {
            return error
        }
    }

    @Test func pngSizeFromIHDR() throws {
        let info = try ImageInfo.recognise(TestImages.png(width: 640, height: 480))
        #expect(info == ImageInfo(format: .png, width: 640, height: 480))
        #expect(info.contentType == "image/png")
        #expect(info.fileExtension == "png")
    }

    @Test(arguments: [UInt8(0xC0), 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF])
    func jpegSizeFromAnyFrameHeader(sof: UInt8) throws {
        let info = try ImageInfo.recognise(TestImages.jpeg(width: 1024, height: 768, sof: sof))
        #expect(info == ImageInfo(format: .jpeg, width: 1024, height: 768))
        #expect(info.contentType == "image/jpeg")
        #expect(info.fileExtension == "jpg")
    }

    @Test func jpegTurnedAQuarterByEXIFReportsItsDisplayedSize() throws {
        for orientation in [6, 8, 5, 7] {
            for bigEndian in [false, true] {
                let turned = TestImages.jpeg(
                    width: 4000, height: 3000, orientation: orientation, bigEndianExif: bigEndian)
                #expect(try ImageInfo.recognise(turned) == ImageInfo(format: .jpeg, width: 3000, height: 4000))
            }
        }
        for orientation in [1, 3, 0, 9] {
            let upright = TestImages.jpeg(width: 4000, height: 3000, orientation: orientation)
            #expect(try ImageInfo.recognise(upright) == ImageInfo(format: .jpeg, width: 4000, height: 3000))
        }
    }

    @Test func webpSizeFromEachHeader() throws {
        #expect(try ImageInfo.recognise(TestImages.webpLossy(width: 300, height: 200)).width == 300)
        #expect(try ImageInfo.recognise(TestImages.webpLossy(width: 300, height: 200)).height == 200)
        #expect(
            try ImageInfo.recognise(TestImages.webpLossless(width: 16383, height: 2))
                == ImageInfo(format: .webp, width: 16383, height: 2))
        #expect(
            try ImageInfo.recognise(TestImages.webpExtended(width: 5000, height: 1))
                == ImageInfo(format: .webp, width: 5000, height: 1))
        #expect(try ImageInfo.recognise(TestImages.webpExtended(width: 1, height: 1)).contentType == "image/webp")
        #expect(try ImageInfo.recognise(TestImages.webpExtended(width: 1, height: 1)).fileExtension == "webp")
    }

    /// Real 1 × 1 WebP files (the lossy, lossless and alpha ones browsers' feature tests use).
    @Test(arguments: [
        "UklGRiIAAABXRUJQVlA4IBYAAAAwAQCdASoBAAEADsD+JaQAA3AAAAAA",
        "UklGRhoAAABXRUJQVlA4TA0AAAAvAAAAEAcQERGIiP4HAA==",
        "UklGRkoAAABXRUJQVlA4WAoAAAAQAAAAAAAAAAAAQUxQSAwAAAARBxAR/Q9ERP8DAABWUDggGAAAABQBAJ0BKgEAAQAAAP4AAA3AAP7mtQAAAA==",
    ])
    func realWebPFiles(base64: String) throws {
        let bytes = try #require(decodeBase64(base64))
        #expect(try ImageInfo.recognise(bytes) == ImageInfo(format: .webp, width: 1, height: 1))
    }

    @Test func theContentDecidesNotTheName() throws {
        var body = MultipartBody()
        body.file("real", filename: "photo.jpg", contentType: "image/jpeg", TestImages.png(width: 2, height: 3))
        body.file(
            "fake", filename: "photo.jpg", contentType: "image/jpeg", Array("<html><script>alert(1)</script>".utf8))
        let request = Request(
            method: .post, target: "/editor/articles", headers: HTTPHeaders([("Content-Type", body.contentType)]),
            body: body.finished)
        let files = try request.multipart().files
        let real = try ImageInfo.recognise(files[0].bytes)
        #expect(real.format == .png)
        #expect(real.fileExtension == "png")
        #expect(refusal(files[1].bytes) == .notAnImage)
        #expect(refusal(files[1].bytes)?.description == "The file is not a JPEG, PNG or WebP image.")
    }

    @Test func notImages() {
        #expect(refusal([]) == .empty)
        #expect(refusal(Array("GIF89a\u{1}\0\u{1}\0".utf8)) == .notAnImage)
        #expect(refusal(Array("RIFF\u{4}\0\0\0WAVEfmt ".utf8)) == .notAnImage)
        #expect(refusal(Array("%PDF-1.7".utf8)) == .notAnImage)
        #expect(refusal([0xFF, 0xD8]) == .notAnImage)
    }

    @Test func zipBombPNGIsRefusedByItsHeaderAlone() {
        let bomb = TestImages.png(width: 100_000, height: 100_000)
        #expect(bomb.count < 100)
        #expect(refusal(bomb) == .tooWide(width: 100_000, height: 100_000, limit: 20_000))
        #expect(refusal(bomb)?.description.contains("20,000 pixels") == true)
        #expect(
            refusal(TestImages.png(width: 20_000, height: 20_000))
                == .tooManyPixels(width: 20_000, height: 20_000, limit: 50_000_000))
        #expect(refusal(TestImages.png(width: 0x8000_0000, height: 1)) == .malformed(.png, "its size is out of range"))
        #expect(refusal(TestImages.png(width: 20_000, height: 2_500)) == nil)
        #expect(refusal(TestImages.webpExtended(width: 1 << 24, height: 1)) != nil)
        #expect(refusal(TestImages.jpeg(width: 65_535, height: 1)) != nil)
    }

    @Test func zeroSizesAreRefused() {
        #expect(refusal(TestImages.png(width: 0, height: 10)) == .noSize(.png))
        #expect(refusal(TestImages.jpeg(width: 10, height: 0)) == .noSize(.jpeg))
        #expect(refusal(TestImages.webpLossy(width: 0, height: 5)) == .noSize(.webp))
    }

    @Test func moreThanFiveMegabytesIsRefused() {
        let big = TestImages.png(width: 100, height: 100) + [UInt8](repeating: 0, count: 6_000_000)
        #expect(refusal(big) == .tooLarge(bytes: big.count, limit: 5 << 20))
        #expect(refusal(big)?.description == "The image is 5.7 MB; images may be at most 5 MB.")
        let justFits = TestImages.png(width: 100, height: 100)
        #expect(refusal(justFits + [UInt8](repeating: 0, count: (5 << 20) - justFits.count)) == nil)
    }

    @Test func truncatedHeadersAreRefused() {
        #expect(refusal(Array(TestImages.png(width: 10, height: 10).prefix(20))) == .truncated(.png))
        #expect(refusal(Array(TestImages.webpLossy(width: 10, height: 10).prefix(25))) == .truncated(.webp))
        let jpeg = TestImages.jpeg(width: 10, height: 10)
        #expect(refusal(Array(jpeg.prefix(30))) == .truncated(.jpeg))
        // Every prefix of every image is an answer, never a crash; those cut before the size are refused.
        for image in [
            TestImages.png(width: 10, height: 10), jpeg, TestImages.jpeg(width: 10, height: 10, orientation: 6),
            TestImages.webpLossy(width: 10, height: 10), TestImages.webpLossless(width: 10, height: 10),
            TestImages.webpExtended(width: 10, height: 10),
        ] {
            for length in 0..<image.count {
                _ = refusal(Array(image.prefix(length)))
            }
            #expect(refusal(Array(image.prefix(12))) != nil)
        }
    }

    @Test func damagedJPEGsAreRefused() {
        let soi: [UInt8] = [0xFF, 0xD8]
        let frame = TestImages.segment(0xC0, [8, 0, 10, 0, 10, 1, 1, 0x11, 0])
        // A scan before any frame header.
        #expect(refusal(soi + TestImages.segment(0xDA, [1, 1, 0, 0, 0x3F, 0]) + frame) != nil)
        // An impossible segment length.
        #expect(
            refusal(soi + [0xFF, 0xE0, 0x00, 0x01] + frame) == .malformed(.jpeg, "a segment has an impossible length"))
        // A segment claiming more bytes than the file has.
        #expect(refusal(soi + [0xFF, 0xE0, 0xFF, 0xFF, 1, 2, 3]) == .truncated(.jpeg))
        // Garbage where a marker belongs.
        #expect(refusal(soi + [0xFF, 0xE0, 0x00, 0x02, 0x41] + frame) != nil)
        // A frame header too short to hold a size.
        #expect(
            refusal(soi + TestImages.segment(0xC0, [8, 0, 10])) == .malformed(.jpeg, "its frame header is too short"))
        // A long run of fill bytes and empty segments is walked, not refused.
        let padded =
            soi + [UInt8](repeating: 0xFF, count: 100_000) + [0xE0, 0, 2]
            + Array(repeating: TestImages.segment(0xFE, []), count: 10_000).flatMap { $0 } + frame
        #expect(refusal(padded) == nil)
    }

    @Test func damagedWebPsAreRefused() {
        #expect(refusal(TestImages.riff("ALPH", [0, 0, 0, 0, 0, 0, 0, 0, 0, 0])) != nil)
        var notKeyFrame = TestImages.webpLossy(width: 10, height: 10)
        notKeyFrame[20] |= 1
        #expect(refusal(notKeyFrame) == .malformed(.webp, "its VP8 frame header is invalid"))
        var badSignature = TestImages.webpLossless(width: 10, height: 10)
        badSignature[20] = 0x2E
        #expect(refusal(badSignature) == .malformed(.webp, "its VP8L header is invalid"))
    }
}

/// Standard base64 (with padding), for the fixtures above.
private func decodeBase64(_ text: String) -> [UInt8]? {
    let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
    var values: [UInt8: UInt32] = [:]
    for (index, byte) in alphabet.enumerated() { values[byte] = UInt32(index) }
    var output: [UInt8] = []
    var buffer: UInt32 = 0
    var bits = 0
    for byte in text.utf8 where byte != UInt8(ascii: "=") {
        guard let value = values[byte] else { return nil }
        buffer = buffer << 6 | value
        bits += 6
        if bits >= 8 {
            bits -= 8
            output.append(UInt8(buffer >> UInt32(bits) & 0xFF))
        }
    }
    return output
}
