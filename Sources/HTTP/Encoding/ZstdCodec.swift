internal import CZstd
import Synchronization

/// Zstandard (RFC 8878) through libzstd, for pages.
///
/// Compression contexts are kept in a small pool and reset between uses: making one allocates
/// its tables, which costs more than compressing a small page at a fast level.
public final class ZstdCodec: Sendable {
    public let level: Int32
    private let pool = Mutex<[ZstdContext]>([])

    public init(level: Int32) { self.level = level }

    /// The zstd frame of `input`, or nil if libzstd fails.
    public func compress(_ input: [UInt8]) -> [UInt8]? {
        guard let context = pool.withLock({ $0.popLast() }) ?? ZstdContext() else { return nil }
        let output = context.compress(input, level: level)
        pool.withLock { contexts in
            if contexts.count < 16 { contexts.append(context) }
        }
        return output
    }

    /// The content of one zstd frame of at most `limit` bytes, or nil.
    public static func decompress(_ input: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        let size = input.withUnsafeBytes { ZSTD_getFrameContentSize($0.baseAddress, $0.count) }
        guard size != ZSTD_CONTENTSIZE_ERROR, size != ZSTD_CONTENTSIZE_UNKNOWN, size <= UInt64(limit) else {
            return nil
        }
        var output = [UInt8](repeating: 0, count: Int(size))
        let written = output.withUnsafeMutableBytes { out in
            input.withUnsafeBytes { ZSTD_decompress(out.baseAddress, out.count, $0.baseAddress, $0.count) }
        }
        guard ZSTD_isError(written) == 0, written == Int(size) else { return nil }
        return output
    }

    /// A template of `page` whose holes' values are written in per request (`EncodedTemplate`).
    ///
    /// One frame. Each inserted hole is its own block, between two flushes: the encoder finds no
    /// match for a filler it has not seen, so it writes that block raw, and a raw block leaves
    /// its repeat offsets and entropy tables as they were — the reader's bytes take the filler's
    /// place without touching anything the encoder assumed. Holes not inserted are copied by the
    /// encoder from an earlier hole of their kind. The content size is the page's (every hole has
    /// its fixed width); no checksum, since the content differs per reader.
    static func template(_ page: HoledPage, inserting: Set<Int>, level: Int32) -> EncodedTemplate? {
        guard let context = ZstdContext() else { return nil }
        return context.template(page, inserting: inserting, level: level)
    }
}

/// One libzstd compression context. Never leaves this file.
private final class ZstdContext: @unchecked Sendable {
    private let context: OpaquePointer

    init?() {
        guard let context = ZSTD_createCCtx() else { return nil }
        self.context = context
    }

    deinit { ZSTD_freeCCtx(context) }

    func compress(_ input: [UInt8], level: Int32) -> [UInt8]? {
        ZSTD_CCtx_reset(context, ZSTD_reset_session_and_parameters)
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        var output = [UInt8](repeating: 0, count: ZSTD_compressBound(input.count))
        let written = output.withUnsafeMutableBytes { out in
            input.withUnsafeBytes { ZSTD_compress2(context, out.baseAddress, out.count, $0.baseAddress, $0.count) }
        }
        guard ZSTD_isError(written) == 0 else { return nil }
        output.removeLast(output.count - written)
        return output
    }

    func template(_ page: HoledPage, inserting: Set<Int>, level: Int32) -> EncodedTemplate? {
        ZSTD_CCtx_reset(context, ZSTD_reset_session_and_parameters)
        ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, level)
        ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 0)
        ZSTD_CCtx_setPledgedSrcSize(context, UInt64(page.bytes.count))
        var output: [UInt8] = []
        output.reserveCapacity(page.bytes.count / 3 + 64)
        var insertions: [EncodedTemplate.Insertion] = []
        var position = 0
        for (index, hole) in page.holes.enumerated() where inserting.contains(index) {
            let end = hole.offset + page.kinds[hole.kind].width
            guard feed(page.bytes[position..<hole.offset], ZSTD_e_flush, into: &output) else { return nil }
            let blockStart = output.count
            guard feed(page.bytes[hole.offset..<end], ZSTD_e_flush, into: &output) else { return nil }
            // Exactly one raw block holding the filler, else the encoder did something else with it.
            let width = end - hole.offset
            let header = UInt32(width) << 3  // Last_Block 0, Block_Type 0 (raw), Block_Size
            let expected =
                [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16)] + page.bytes[hole.offset..<end]
            guard output[blockStart...].elementsEqual(expected) else { return nil }
            insertions.append(.init(offset: blockStart + 3, kind: hole.kind))
            position = end
        }
        guard feed(page.bytes[position...], ZSTD_e_end, into: &output) else { return nil }
        return EncodedTemplate(coding: .zstd, bytes: output, insertions: insertions, kinds: page.kinds)
    }

    /// Gives `input` to the stream with `directive` and appends all it writes.
    private func feed(_ input: ArraySlice<UInt8>, _ directive: ZSTD_EndDirective, into output: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: ZSTD_CStreamOutSize())
        return input.withUnsafeBytes { inputBytes in
            var inBuffer = ZSTD_inBuffer(src: inputBytes.baseAddress, size: inputBytes.count, pos: 0)
            while true {
                var produced = 0
                let remaining = chunk.withUnsafeMutableBytes { chunkBytes -> Int in
                    var outBuffer = ZSTD_outBuffer(dst: chunkBytes.baseAddress, size: chunkBytes.count, pos: 0)
                    let remaining = ZSTD_compressStream2(context, &outBuffer, &inBuffer, directive)
                    produced = outBuffer.pos
                    return remaining
                }
                if ZSTD_isError(remaining) != 0 { return false }
                output.append(contentsOf: chunk[0..<produced])
                if remaining == 0 && inBuffer.pos == inBuffer.size { return true }
            }
        }
    }
}
