internal import CZlib
import Synchronization

/// gzip compression with reused zlib streams.
///
/// Setting up a deflate stream allocates ~256 KiB; doing that per response would
/// cost more than compressing a page. Streams are kept in a small pool and
/// `deflateReset` between uses.
public final class Gzip: Sendable {
    public let level: Int32
    private let pool = Mutex<[DeflateStream]>([])

    /// `level` 1 (fastest) … 9 (smallest). Pages use a fast level; static files,
    /// compressed once and cached, use 9.
    public init(level: Int32 = 4) {
        self.level = level
    }

    /// The gzip encoding of `input`, or nil if zlib fails (the caller then sends it uncompressed).
    public func compress(_ input: [UInt8]) -> [UInt8]? {
        guard let stream = pool.withLock({ $0.popLast() }) ?? DeflateStream(level: level) else { return nil }
        let output = stream.compress(input)
        pool.withLock { streams in
            if streams.count < 16 { streams.append(stream) }
        }
        return output
    }

    /// Decompresses a gzip member (used by tests and by feed import of `.gz` files).
    public static func decompress(_ input: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        var stream = z_stream()
        guard inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
            return nil
        }
        defer { inflateEnd(&stream) }
        var output = [UInt8]()
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        var input = input
        return input.withUnsafeMutableBufferPointer { inputBuffer -> [UInt8]? in
            stream.next_in = inputBuffer.baseAddress
            stream.avail_in = UInt32(inputBuffer.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { chunkBuffer -> Int32 in
                    stream.next_out = chunkBuffer.baseAddress
                    stream.avail_out = UInt32(chunkBuffer.count)
                    return inflate(&stream, Z_NO_FLUSH)
                }
                let produced = chunk.count - Int(stream.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return nil }
                if status == Z_STREAM_END { return output }
                if status != Z_OK { return nil }
            }
        }
    }
}

extension Gzip {
    /// The 10-byte gzip header Herald writes: no name, no time, Unix.
    static let header: [UInt8] = [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]

    /// A template of `page` whose holes' values are written in per request (`EncodedTemplate`).
    ///
    /// One raw deflate stream in a gzip member. Before an inserted hole the stream is flushed to a
    /// byte boundary; the encoder is given the filler and flushed again, what it wrote for it is
    /// dropped, and a stored block with the same bytes takes its place (deflate carries nothing
    /// from block to block but the window, which holds the same bytes either way). The CRC in
    /// the trailer is patched per reader (`GzipTrailer`).
    static func template(_ page: HoledPage, inserting: Set<Int>, level: Int32) -> EncodedTemplate? {
        guard let stream = DeflateStream(level: level, windowBits: -15, memoryLevel: 9) else { return nil }
        var output = header
        var insertions: [EncodedTemplate.Insertion] = []
        var position = 0
        for (index, hole) in page.holes.enumerated() where inserting.contains(index) {
            let end = hole.offset + page.kinds[hole.kind].width
            guard stream.feed(page.bytes[position..<hole.offset], flush: Z_SYNC_FLUSH, into: &output) else {
                return nil
            }
            var dropped: [UInt8] = []
            guard stream.feed(page.bytes[hole.offset..<end], flush: Z_SYNC_FLUSH, into: &dropped) else { return nil }
            let length = UInt16(end - hole.offset)
            // BFINAL 0, BTYPE 00 (stored), padded to the byte; LEN and its complement, little-endian.
            output += [0, UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            insertions.append(.init(offset: output.count, kind: hole.kind))
            output += page.bytes[hole.offset..<end]
            position = end
        }
        guard stream.feed(page.bytes[position...], flush: Z_FINISH, into: &output) else { return nil }
        let trailer = GzipTrailer(page)
        output += [UInt8](repeating: 0, count: 8)
        var template = EncodedTemplate(coding: .gzip, bytes: output, insertions: insertions, kinds: page.kinds)
        template.gzipTrailer = trailer
        return template
    }
}

/// The CRC-32 and size that end a gzip member, for a page whose holes change per reader.
///
/// CRC-32 is linear over GF(2) apart from a constant: the CRC of the page with a reader's values
/// is the CRC with the fillers, plus for each hole the CRC's linear part of (value XOR filler)
/// shifted by the bytes after the hole. Every hole of a kind holds the same value, so the shifts
/// of a kind add up, once, to one operator (zlib's `crc32_combine_gen`): per reader, one CRC of
/// each kind's value and one multiplication, however many holes the page has.
struct GzipTrailer: Sendable {
    let crc: UInt
    let size: UInt32
    /// Per kind: the sum of the shift operators of its holes, its filler, and the CRC of as many zeros.
    let kinds: [(shifts: UInt, filler: [UInt8], zeros: UInt)]

    init(_ page: HoledPage) {
        crc = page.bytes.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) }
        size = UInt32(truncatingIfNeeded: page.bytes.count)
        kinds = page.kinds.indices.map { kind in
            let shape = page.kinds[kind]
            var shifts: UInt = 0
            for hole in page.holes where hole.kind == kind {
                shifts ^= crc32_combine_gen(Int(page.bytes.count - hole.offset - shape.width))
            }
            let zeros = [UInt8](repeating: 0, count: shape.width)
            return (shifts, shape.filler, zeros.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) })
        }
    }

    /// Writes the CRC for `values` and the size into the last 8 bytes of `body`.
    func write(_ values: [[UInt8]], into body: inout [UInt8]) {
        var crc = self.crc
        for (kind, value) in values.enumerated() {
            let shape = kinds[kind]
            // A kind with no hole adds nothing (and zlib's multiplication never ends on a zero operator).
            if shape.shifts == 0 { continue }
            let difference = zip(value, shape.filler).map { $0 ^ $1 }
            let linear = difference.withUnsafeBufferPointer { crc32(0, $0.baseAddress, UInt32($0.count)) } ^ shape.zeros
            crc ^= crc32_combine_op(linear, 0, shape.shifts)
        }
        let end = body.count
        for i in 0..<4 {
            body[end - 8 + i] = UInt8(truncatingIfNeeded: crc >> (8 * i))
            body[end - 4 + i] = UInt8(truncatingIfNeeded: size >> (8 * i))
        }
    }
}

/// One zlib deflate stream in gzip mode. Heap-allocated because zlib keeps a
/// pointer back to its `z_stream` and checks it on every call.
private final class DeflateStream: @unchecked Sendable {
    private let stream: UnsafeMutablePointer<z_stream>

    /// windowBits 15 + 16 selects the gzip wrapper, -15 a raw deflate stream.
    init?(level: Int32, windowBits: Int32 = 15 + 16, memoryLevel: Int32 = 8) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        let status = deflateInit2_(
            stream, level, Z_DEFLATED, windowBits, memoryLevel, Z_DEFAULT_STRATEGY, zlibVersion(),
            Int32(MemoryLayout<z_stream>.size))
        guard status == Z_OK else {
            stream.deallocate()
            return nil
        }
    }

    deinit {
        deflateEnd(stream)
        stream.deallocate()
    }

    func compress(_ input: [UInt8]) -> [UInt8]? {
        guard deflateReset(stream) == Z_OK else { return nil }
        let bound = Int(deflateBound(stream, UInt(input.count)))
        var output = [UInt8](repeating: 0, count: bound)
        var input = input
        let status = input.withUnsafeMutableBufferPointer { inputBuffer in
            output.withUnsafeMutableBufferPointer { outputBuffer in
                stream.pointee.next_in = inputBuffer.baseAddress
                stream.pointee.avail_in = UInt32(inputBuffer.count)
                stream.pointee.next_out = outputBuffer.baseAddress
                stream.pointee.avail_out = UInt32(outputBuffer.count)
                return deflate(stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { return nil }
        output.removeLast(Int(stream.pointee.avail_out))
        return output
    }

    /// Gives `input` to the stream with `flush` and appends all it writes to `output`.
    func feed(_ input: ArraySlice<UInt8>, flush: Int32, into output: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16 * 1024)
        var input = Array(input)
        return input.withUnsafeMutableBufferPointer { inputBuffer in
            stream.pointee.next_in = inputBuffer.baseAddress
            stream.pointee.avail_in = UInt32(inputBuffer.count)
            while true {
                let status = chunk.withUnsafeMutableBufferPointer { chunkBuffer -> Int32 in
                    stream.pointee.next_out = chunkBuffer.baseAddress
                    stream.pointee.avail_out = UInt32(chunkBuffer.count)
                    return deflate(stream, flush)
                }
                let produced = chunk.count - Int(stream.pointee.avail_out)
                output.append(contentsOf: chunk[0..<produced])
                if flush == Z_FINISH {
                    if status == Z_STREAM_END { return true }
                    if status != Z_OK && status != Z_BUF_ERROR { return false }
                } else {
                    if status != Z_OK && status != Z_BUF_ERROR { return false }
                    // Done when the input is taken and the output was not filled to the brim.
                    if stream.pointee.avail_in == 0 && stream.pointee.avail_out != 0 { return true }
                }
            }
        }
    }
}
