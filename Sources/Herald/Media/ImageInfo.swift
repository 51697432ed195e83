import TextSupport

/// What an uploaded image is, read from its bytes alone: JPEG, PNG or WebP, and its size.
///
/// The format comes from the file's magic bytes, never from its name or declared type, and the
/// size from its header (PNG's IHDR, JPEG's SOFn frame header, WebP's VP8/VP8L/VP8X header).
/// Herald never decodes pixels, so a size is refused from the header alone: a tiny file that
/// declares 100,000 × 100,000 pixels (a "zip bomb" for whoever decodes it) goes no further.
/// Every read is bounds-checked and every loop advances, so any bytes give an answer or a
/// `Refusal`, never a crash.
public struct ImageInfo: Sendable, Equatable {
    public enum Format: String, Sendable, Equatable {
        case jpeg, png, webp
    }

    public let format: Format
    /// The size as displayed: for a JPEG whose EXIF orientation turns it a quarter, the stored
    /// width and height swapped, as browsers show it.
    public let width: Int
    public let height: Int

    public var contentType: String {
        switch format {
        case .jpeg: "image/jpeg"
        case .png: "image/png"
        case .webp: "image/webp"
        }
    }

    /// The extension its stored name takes, without the dot.
    public var fileExtension: String {
        switch format {
        case .jpeg: "jpg"
        case .png: "png"
        case .webp: "webp"
        }
    }

    public struct Limits: Sendable {
        /// The SPEC's "at most 5 MB".
        public var maxBytes = 5 << 20
        public var maxSide = 20_000
        public var maxPixels = 50_000_000

        public init() {}
    }

    /// Why an upload is not accepted as an image; `description` is a sentence for the editor.
    public enum Refusal: Error, Sendable, Equatable, CustomStringConvertible {
        case empty
        case tooLarge(bytes: Int, limit: Int)
        case notAnImage
        case truncated(Format)
        case malformed(Format, String)
        case noSize(Format)
        case tooWide(width: Int, height: Int, limit: Int)
        case tooManyPixels(width: Int, height: Int, limit: Int)

        public var description: String {
            switch self {
            case .empty:
                return "The image file is empty."
            case .tooLarge(let bytes, let limit):
                return "The image is \(megabytes(bytes)); images may be at most \(megabytes(limit))."
            case .notAnImage:
                return "The file is not a JPEG, PNG or WebP image."
            case .truncated(let format):
                return "The \(format.name) image is cut short: its header is incomplete."
            case .malformed(let format, let detail):
                return "The \(format.name) image is damaged (\(detail))."
            case .noSize(let format):
                return "The \(format.name) image does not declare a width and height."
            case .tooWide(let width, let height, let limit):
                return
                    "The image is \(width) × \(height) pixels; neither side may be more than \(groupedDigits(limit)) pixels."
            case .tooManyPixels(let width, let height, let limit):
                return
                    "The image is \(width) × \(height) pixels; images may have at most \(limit / 1_000_000) megapixels."
            }
        }
    }

    public init(format: Format, width: Int, height: Int) {
        self.format = format
        self.width = width
        self.height = height
    }

    /// Recognises `bytes` as a JPEG, PNG or WebP image within `limits`.
    public static func recognise(_ bytes: [UInt8], limits: Limits = Limits()) throws(Refusal) -> ImageInfo {
        guard !bytes.isEmpty else { throw .empty }
        guard bytes.count <= limits.maxBytes else { throw .tooLarge(bytes: bytes.count, limit: limits.maxBytes) }
        let reader = ByteReader(bytes: bytes)
        let size: (width: Int, height: Int)
        let format: Format
        if reader.has([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A], at: 0) {
            format = .png
            size = try pngSize(reader)
        } else if reader.has([0xFF, 0xD8, 0xFF], at: 0) {
            format = .jpeg
            size = try jpegSize(reader)
        } else if reader.has(Array("RIFF".utf8), at: 0) && reader.has(Array("WEBP".utf8), at: 8) {
            format = .webp
            size = try webpSize(reader)
        } else {
            throw .notAnImage
        }
        guard size.width > 0, size.height > 0 else { throw .noSize(format) }
        guard size.width <= limits.maxSide, size.height <= limits.maxSide else {
            throw .tooWide(width: size.width, height: size.height, limit: limits.maxSide)
        }
        guard size.width * size.height <= limits.maxPixels else {
            throw .tooManyPixels(width: size.width, height: size.height, limit: limits.maxPixels)
        }
        return ImageInfo(format: format, width: size.width, height: size.height)
    }

    // MARK: PNG

    /// The signature, then the IHDR chunk: length 13, type, width and height (big-endian).
    private static func pngSize(_ reader: ByteReader) throws(Refusal) -> (width: Int, height: Int) {
        guard reader.count >= 8 + 8 + 13 else { throw .truncated(.png) }
        guard reader.uint32BE(at: 8) == 13, reader.has(Array("IHDR".utf8), at: 12) else {
            throw .malformed(.png, "it does not begin with its IHDR header")
        }
        let width = reader.uint32BE(at: 16)
        let height = reader.uint32BE(at: 20)
        // PNG sizes are at most 2³¹ − 1; larger is not a PNG.
        guard width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
            throw .malformed(.png, "its size is out of range")
        }
        return (width, height)
    }

    // MARK: JPEG

    /// Walks the marker segments from SOI to the first frame header (SOF0–SOF15 but DHT, JPG and
    /// DAC), noting an EXIF orientation on the way. Each step moves forward by at least two bytes
    /// and every length is checked against what is there.
    private static func jpegSize(_ reader: ByteReader) throws(Refusal) -> (width: Int, height: Int) {
        var position = 2
        var quarterTurn = false
        while true {
            guard position < reader.count else { throw .truncated(.jpeg) }
            guard reader[position] == 0xFF else {
                throw .malformed(.jpeg, "a marker is missing between its segments")
            }
            // Any number of 0xFF fill bytes may precede a marker.
            while position < reader.count && reader[position] == 0xFF { position += 1 }
            guard position < reader.count else { throw .truncated(.jpeg) }
            let marker = reader[position]
            position += 1
            switch marker {
            case 0x01, 0xD0...0xD7:
                continue  // stand-alone markers, no length
            case 0xD8, 0xD9, 0xDA:
                throw .malformed(.jpeg, "its image data begins before its frame header")
            case 0x00:
                throw .malformed(.jpeg, "a marker is missing between its segments")
            default:
                break
            }
            guard position + 2 <= reader.count else { throw .truncated(.jpeg) }
            let length = reader.uint16BE(at: position)
            guard length >= 2 else { throw .malformed(.jpeg, "a segment has an impossible length") }
            guard position + length <= reader.count else { throw .truncated(.jpeg) }
            let isFrameHeader = (0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC
            if isFrameHeader {
                // Length, precision (1), height (2), width (2), components (1).
                guard length >= 8 else { throw .malformed(.jpeg, "its frame header is too short") }
                let height = reader.uint16BE(at: position + 3)
                let width = reader.uint16BE(at: position + 5)
                return quarterTurn ? (height, width) : (width, height)
            }
            if marker == 0xE1, let orientation = exifOrientation(reader, from: position + 2, to: position + length) {
                quarterTurn = (5...8).contains(orientation)
            }
            position += length
        }
    }

    /// The EXIF orientation (1–8) in an APP1 segment's bytes `start..<end`, if it has one: the
    /// `Exif\0\0` header, a TIFF header (`II*\0` or `MM\0*`), then IFD0's entries for tag 0x0112.
    /// Anything out of place means no orientation, not a refusal (browsers show such a file).
    private static func exifOrientation(_ reader: ByteReader, from start: Int, to end: Int) -> Int? {
        guard end - start >= 6 + 8, reader.has(Array("Exif".utf8) + [0, 0], at: start) else { return nil }
        let tiff = start + 6
        let littleEndian: Bool
        if reader.has([0x49, 0x49, 0x2A, 0x00], at: tiff) {
            littleEndian = true
        } else if reader.has([0x4D, 0x4D, 0x00, 0x2A], at: tiff) {
            littleEndian = false
        } else {
            return nil
        }
        func uint16(_ at: Int) -> Int? {
            guard at >= tiff, at + 2 <= end else { return nil }
            return littleEndian ? reader.uint16LE(at: at) : reader.uint16BE(at: at)
        }
        func uint32(_ at: Int) -> Int? {
            guard at >= tiff, at + 4 <= end else { return nil }
            return littleEndian ? reader.uint32LE(at: at) : reader.uint32BE(at: at)
        }
        guard let offset = uint32(tiff + 4), offset <= end - tiff, let entries = uint16(tiff + offset) else {
            return nil
        }
        let first = tiff + offset + 2
        for entry in 0..<min(entries, 1000) {
            let at = first + entry * 12
            guard let tag = uint16(at) else { return nil }
            if tag == 0x0112 {
                guard uint16(at + 2) == 3, let value = uint16(at + 8), (1...8).contains(value) else { return nil }
                return value
            }
        }
        return nil
    }

    // MARK: WebP

    /// `RIFF` size `WEBP`, then the first chunk: `VP8 ` (lossy), `VP8L` (lossless) or `VP8X`
    /// (extended: the canvas size).
    private static func webpSize(_ reader: ByteReader) throws(Refusal) -> (width: Int, height: Int) {
        guard reader.count >= 20 else { throw .truncated(.webp) }
        let chunkSize = reader.uint32LE(at: 16)
        let data = 20
        if reader.has(Array("VP8 ".utf8), at: 12) {
            // A frame tag (3 bytes, a key frame has bit 0 clear), the start code, then 14-bit sizes.
            guard chunkSize >= 10, reader.count >= data + 10 else { throw .truncated(.webp) }
            guard reader[data] & 1 == 0, reader.has([0x9D, 0x01, 0x2A], at: data + 3) else {
                throw .malformed(.webp, "its VP8 frame header is invalid")
            }
            return (reader.uint16LE(at: data + 6) & 0x3FFF, reader.uint16LE(at: data + 8) & 0x3FFF)
        }
        if reader.has(Array("VP8L".utf8), at: 12) {
            // The signature 0x2F, then width − 1 and height − 1 in 14 bits each, and a 3-bit version 0.
            guard chunkSize >= 5, reader.count >= data + 5 else { throw .truncated(.webp) }
            let bits = reader.uint32LE(at: data + 1)
            guard reader[data] == 0x2F, bits >> 29 == 0 else {
                throw .malformed(.webp, "its VP8L header is invalid")
            }
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        }
        if reader.has(Array("VP8X".utf8), at: 12) {
            // Flags (1) and reserved (3), then canvas width − 1 and height − 1 in 24 bits each.
            guard chunkSize >= 10, reader.count >= data + 10 else { throw .truncated(.webp) }
            return (reader.uint24LE(at: data + 4) + 1, reader.uint24LE(at: data + 7) + 1)
        }
        throw .malformed(.webp, "its first chunk is not VP8, VP8L or VP8X")
    }
}

extension ImageInfo.Format {
    /// The format's name in a sentence.
    public var name: String {
        switch self {
        case .jpeg: "JPEG"
        case .png: "PNG"
        case .webp: "WebP"
        }
    }
}

/// `5 MB`, `5.2 MB` (in MiB, as the limit is counted).
private func megabytes(_ bytes: Int) -> String {
    let tenths = (bytes * 10 + (1 << 20) / 2) >> 20
    return tenths % 10 == 0 ? "\(tenths / 10) MB" : "\(tenths / 10).\(tenths % 10) MB"
}

/// `20,000`.
/// Bounds-checked reads; callers check `count` before reading past it, and a read out of range
/// answers 0 rather than trapping, so a missed check can only give a wrong size, never a crash.
private struct ByteReader {
    let bytes: [UInt8]

    var count: Int { bytes.count }

    subscript(index: Int) -> UInt8 {
        index >= 0 && index < bytes.count ? bytes[index] : 0
    }

    func has(_ literal: [UInt8], at index: Int) -> Bool {
        guard index >= 0, index + literal.count <= bytes.count else { return false }
        for offset in 0..<literal.count where bytes[index + offset] != literal[offset] { return false }
        return true
    }

    func uint16BE(at index: Int) -> Int { Int(self[index]) << 8 | Int(self[index + 1]) }
    func uint16LE(at index: Int) -> Int { Int(self[index]) | Int(self[index + 1]) << 8 }
    func uint24LE(at index: Int) -> Int { uint16LE(at: index) | Int(self[index + 2]) << 16 }

    func uint32BE(at index: Int) -> Int {
        Int(self[index]) << 24 | Int(self[index + 1]) << 16 | Int(self[index + 2]) << 8 | Int(self[index + 3])
    }

    func uint32LE(at index: Int) -> Int {
        Int(self[index]) | Int(self[index + 1]) << 8 | Int(self[index + 2]) << 16 | Int(self[index + 3]) << 24
    }
}
