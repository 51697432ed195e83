internal import CBrotli

/// Brotli (RFC 7932) through libbrotlienc/libbrotlidec, for pages.
///
/// Quality 0–11. An encoder instance cannot be reset (libbrotli 1.0.9), so each compression makes
/// its own; the window is sized to the page, which keeps that allocation small.
public enum BrotliCodec {
    /// Browsers accept any window; 4 MiB is libbrotli's default and larger than any page.
    static let windowBits: Int32 = 22

    /// The brotli encoding of `input` at `quality`, or nil if libbrotli fails.
    public static func compress(_ input: [UInt8], quality: Int32) -> [UInt8]? {
        guard var stream = BrotliStream(quality: quality, sizeHint: input.count),
            stream.feed(input[...], operation: BROTLI_OPERATION_FINISH)
        else { return nil }
        return stream.output
    }

    /// The decoded bytes of a whole brotli stream of at most `limit` bytes, or nil.
    public static func decompress(_ input: [UInt8], limit: Int = 64 << 20) -> [UInt8]? {
        guard let decoder = BrotliDecoderCreateInstance(nil, nil, nil) else { return nil }
        defer { BrotliDecoderDestroyInstance(decoder) }
        var output: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        return input.withUnsafeBufferPointer { inputBuffer -> [UInt8]? in
            var availableIn = inputBuffer.count
            var nextIn = inputBuffer.baseAddress
            while true {
                var produced = 0
                let result = chunk.withUnsafeMutableBufferPointer { chunkBuffer -> BrotliDecoderResult in
                    var availableOut = chunkBuffer.count
                    var nextOut = chunkBuffer.baseAddress
                    let result = BrotliDecoderDecompressStream(
                        decoder, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                    produced = chunkBuffer.count - availableOut
                    return result
                }
                output.append(contentsOf: chunk[0..<produced])
                if output.count > limit { return nil }
                switch result {
                case BROTLI_DECODER_RESULT_SUCCESS: return availableIn == 0 ? output : nil
                case BROTLI_DECODER_RESULT_NEEDS_MORE_OUTPUT: continue
                default: return nil
                }
            }
        }
    }

    /// A template of `page` whose holes' values are written in per request (`EncodedTemplate`).
    ///
    /// The encoder is given each inserted hole's filler, with the two page bytes after it, between
    /// two flushes: what it made of them is dropped and an uncompressed meta-block with the same
    /// bytes takes its place, so the decoder's history, position and last two bytes (the context
    /// of the next literals) are the encoder's, whatever the reader's value. Holes not inserted
    /// are left to the encoder, which copies them from an earlier hole of their kind.
    static func template(_ page: HoledPage, inserting: Set<Int>, quality: Int32) -> EncodedTemplate? {
        guard var stream = BrotliStream(quality: quality, sizeHint: page.bytes.count) else { return nil }
        var insertions: [EncodedTemplate.Insertion] = []
        var position = 0
        for (index, hole) in page.holes.enumerated() {
            let end = hole.offset + page.kinds[hole.kind].width
            guard inserting.contains(index) else { continue }
            // The meta-block carries the hole and the two bytes after it, which must be the page's.
            let carried = end + 2
            guard carried <= page.bytes.count,
                !page.holes.contains(where: { $0.offset > hole.offset && $0.offset < carried })
            else { return nil }
            guard stream.feed(page.bytes[position..<hole.offset], operation: BROTLI_OPERATION_FLUSH) else {
                return nil
            }
            let kept = stream.output.count
            guard stream.feed(page.bytes[hole.offset..<carried], operation: BROTLI_OPERATION_FLUSH) else {
                return nil
            }
            stream.output.removeSubrange(kept...)
            let length = carried - hole.offset
            // ISLAST 0, MNIBBLES 4 (0b00), MLEN-1 in 16 bits, ISUNCOMPRESSED 1; padded to 3 bytes.
            let header = UInt32(length - 1) << 3 | 1 << 19
            stream.output += [UInt8(header & 0xFF), UInt8(header >> 8 & 0xFF), UInt8(header >> 16)]
            insertions.append(.init(offset: stream.output.count, kind: hole.kind))
            stream.output += page.bytes[hole.offset..<carried]
            position = carried
        }
        guard stream.feed(page.bytes[position...], operation: BROTLI_OPERATION_FINISH) else { return nil }
        return EncodedTemplate(coding: .br, bytes: stream.output, insertions: insertions, kinds: page.kinds)
    }
}

/// One libbrotlienc encoder and what it has written. Never leaves this file.
private struct BrotliStream {
    let encoder: OpaquePointer
    var output: [UInt8] = []
    private let owner: Owner

    /// Destroys the encoder when the last copy of the stream goes.
    private final class Owner {
        let encoder: OpaquePointer
        init(_ encoder: OpaquePointer) { self.encoder = encoder }
        deinit { BrotliEncoderDestroyInstance(encoder) }
    }

    init?(quality: Int32, sizeHint: Int) {
        guard let encoder = BrotliEncoderCreateInstance(nil, nil, nil) else { return nil }
        self.encoder = encoder
        owner = Owner(encoder)
        BrotliEncoderSetParameter(encoder, BROTLI_PARAM_QUALITY, UInt32(quality))
        BrotliEncoderSetParameter(encoder, BROTLI_PARAM_LGWIN, UInt32(BrotliCodec.windowBits))
        BrotliEncoderSetParameter(encoder, BROTLI_PARAM_MODE, UInt32(BROTLI_MODE_TEXT.rawValue))
        BrotliEncoderSetParameter(encoder, BROTLI_PARAM_SIZE_HINT, UInt32(min(sizeHint, 1 << 30)))
        output.reserveCapacity(sizeHint / 3 + 64)
    }

    /// Gives `input` to the encoder with `operation` and appends everything it writes.
    mutating func feed(_ input: ArraySlice<UInt8>, operation: BrotliEncoderOperation) -> Bool {
        input.withUnsafeBufferPointer { inputBuffer in
            var availableIn = inputBuffer.count
            var nextIn = inputBuffer.baseAddress
            while true {
                var availableOut = 0
                var nextOut: UnsafeMutablePointer<UInt8>? = nil
                guard
                    BrotliEncoderCompressStream(encoder, operation, &availableIn, &nextIn, &availableOut, &nextOut, nil)
                        == BROTLI_TRUE
                else { return false }
                var size = 0
                if let taken = BrotliEncoderTakeOutput(encoder, &size), size > 0 {
                    output.append(contentsOf: UnsafeBufferPointer(start: taken, count: size))
                }
                let done =
                    availableIn == 0 && BrotliEncoderHasMoreOutput(encoder) == BROTLI_FALSE
                    && (operation != BROTLI_OPERATION_FINISH || BrotliEncoderIsFinished(encoder) == BROTLI_TRUE)
                if done { return true }
            }
        }
    }
}
