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

/// One zlib deflate stream in gzip mode. Heap-allocated because zlib keeps a
/// pointer back to its `z_stream` and checks it on every call.
private final class DeflateStream: @unchecked Sendable {
    private let stream: UnsafeMutablePointer<z_stream>

    init?(level: Int32) {
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // windowBits 15 + 16 selects the gzip wrapper.
        let status = deflateInit2_(
            stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, zlibVersion(),
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
}
