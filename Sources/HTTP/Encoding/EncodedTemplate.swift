/// A page compressed once, into which each reader's values are written as it is served.
///
/// `bytes` is a complete encoded body for the page with its fillers; at each insertion the
/// encoding carries the hole's bytes verbatim (a stored, uncompressed or raw block), and every
/// other hole of the page is a copy of one of those. Serving it to a reader is one copy of the
/// bytes and a write of their values (and, for gzip, a CRC worked out from the values alone).
public struct EncodedTemplate: Sendable {
    struct Insertion: Sendable {
        let offset: Int
        let kind: Int
    }

    public let coding: ContentCoding
    let bytes: [UInt8]
    let insertions: [Insertion]
    let kinds: [HoledPage.Kind]
    /// gzip's trailer, which holds a CRC of the whole content.
    var gzipTrailer: GzipTrailer?

    /// The encoded size with fillers; a reader's copy has the same size.
    public var count: Int { bytes.count }

    /// The encoded page with `values[k]` in every hole of kind `k`; nil unless each value has
    /// its kind's width.
    public func filled(_ values: [[UInt8]]) -> [UInt8]? {
        guard values.count == kinds.count, zip(values, kinds).allSatisfy({ $0.count == $1.width }) else {
            return nil
        }
        var out = bytes
        out.withUnsafeMutableBufferPointer { out in
            for insertion in insertions {
                values[insertion.kind].withUnsafeBufferPointer { value in
                    UnsafeMutableBufferPointer(rebasing: out[insertion.offset..<insertion.offset + value.count])
                        .update(fromContentsOf: value)
                }
            }
        }
        gzipTrailer?.write(values, into: &out)
        return out
    }

    /// Compresses `page` with `encode`, and checks the result the only way that proves it: a
    /// reader's copy, made with values unlike the fillers, decoded by the coding's own decoder, is
    /// the page with those values. The first hole of each kind is inserted; a hole the encoder
    /// wrote otherwise than as a copy (out of its window, or a literal byte) is inserted too, and
    /// the page encoded again — at most a few times, then nil (the page is then compressed per
    /// request).
    static func build(
        _ page: HoledPage, encode: (HoledPage, Set<Int>) -> EncodedTemplate?, decode: ([UInt8]) -> [UInt8]?
    ) -> EncodedTemplate? {
        var inserting = Set<Int>()
        for kind in page.kinds.indices {
            if let first = page.holes.firstIndex(where: { $0.kind == kind }) { inserting.insert(first) }
        }
        let values = page.kinds.enumerated().map { kind, shape in Self.testValue(width: shape.width, seed: kind) }
        var expected = page.bytes
        for hole in page.holes {
            expected.replaceSubrange(hole.offset..<hole.offset + page.kinds[hole.kind].width, with: values[hole.kind])
        }
        for _ in 0..<4 {
            guard let template = encode(page, inserting), let filled = template.filled(values),
                let decoded = decode(filled), decoded.count == expected.count
            else { return nil }
            if decoded == expected { return template }
            let wrong = page.holes.indices.filter { index in
                let hole = page.holes[index]
                let range = hole.offset..<hole.offset + page.kinds[hole.kind].width
                return !decoded[range].elementsEqual(expected[range])
            }
            let more = Set(wrong).subtracting(inserting)
            if more.isEmpty { return nil }
            inserting.formUnion(more)
        }
        return nil
    }

    /// Letters and digits from a fixed pseudo-random sequence: no two kinds alike, no filler byte.
    static func testValue(width: Int, seed: Int) -> [UInt8] {
        let letters = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var state = UInt64(0x9E37_79B9_7F4A_7C15) &* UInt64(seed + 1)
        return (0..<width).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return letters[Int(state >> 58)]
        }
    }
}
