/// A page to be compressed once and served to many readers, with fixed-width holes where each
/// reader's own values go (their form token, their name).
///
/// In `bytes` every hole holds its kind's filler: bytes that valid UTF-8 HTML never contains, laid
/// out so that no two places in any filler look alike (`HoleFillers`). An encoder that meets a
/// filler again can only copy it from the same place in an earlier filler of the same kind, so
/// whatever a reader's value is, the copy brings that value: the compressed page is right for
/// every reader once the first hole of each kind holds their bytes.
public struct HoledPage: Sendable {
    public struct Kind: Sendable, Equatable {
        public let width: Int
        public let filler: [UInt8]

        public init(width: Int, filler: [UInt8]) {
            self.width = width
            self.filler = filler
        }
    }

    public struct Hole: Sendable, Equatable {
        public let offset: Int
        public let kind: Int

        public init(offset: Int, kind: Int) {
            self.offset = offset
            self.kind = kind
        }
    }

    public let bytes: [UInt8]
    /// In order of offset, not overlapping.
    public let holes: [Hole]
    public let kinds: [Kind]

    /// Nil when the page cannot be a template: holes out of order or out of bounds, or a filler
    /// byte in the page outside its holes (text with control characters, which could then be
    /// mistaken for a hole).
    public init?(bytes: [UInt8], holes: [Hole], kinds: [Kind]) {
        var end = 0
        var fillerBytes = [Bool](repeating: false, count: 256)
        for byte in HoleFillers.alphabet { fillerBytes[Int(byte)] = true }
        for hole in holes {
            guard hole.kind >= 0, hole.kind < kinds.count, hole.offset >= end else { return nil }
            let kind = kinds[hole.kind]
            guard hole.offset + kind.width <= bytes.count,
                bytes[hole.offset..<hole.offset + kind.width].elementsEqual(kind.filler)
            else { return nil }
            if bytes[end..<hole.offset].contains(where: { fillerBytes[Int($0)] }) { return nil }
            end = hole.offset + kind.width
        }
        if bytes[end...].contains(where: { fillerBytes[Int($0)] }) { return nil }
        self.bytes = bytes
        self.holes = holes
        self.kinds = kinds
    }
}

/// Fillers for holes of given widths.
///
/// The alphabet is the 42 bytes valid UTF-8 HTML never holds (C0 controls but tab, LF, CR and
/// form feed's neighbours used by text, DEL, and bytes no UTF-8 sequence uses). Each kind's
/// filler begins and ends with a byte of its own, found nowhere else in any filler; its inside is
/// cut from one de Bruijn sequence over the remaining bytes, so no pair of adjacent bytes occurs
/// twice in all the fillers together. A copy that covers part of a filler therefore lines up
/// with the same place of the same kind's filler, or with nothing.
public enum HoleFillers {
    static let alphabet: [UInt8] =
        Array(0x01...0x08) + [0x0B] + Array(0x0E...0x1F) + [0x7F, 0xC0, 0xC1] + Array(0xF5...0xFF)

    /// At most this many kinds (each takes two of the alphabet's bytes for its ends).
    public static let maximumKinds = 4

    /// One filler per width, in order; nil when there are too many kinds or the widths are too
    /// long for the sequence (over a thousand bytes in all) or shorter than 2.
    public static func fillers(widths: [Int]) -> [[UInt8]]? {
        guard widths.count <= maximumKinds, widths.allSatisfy({ $0 >= 2 }) else { return nil }
        let ends = Array(alphabet.prefix(2 * maximumKinds))
        let inside = deBruijn(Array(alphabet.dropFirst(2 * maximumKinds)))
        var start = 0
        var fillers: [[UInt8]] = []
        for (index, width) in widths.enumerated() {
            let length = width - 2
            // Each piece of the sequence is cut apart from the next by one unused byte, so that a
            // pair spanning two pieces is not also a pair inside one.
            guard start + length <= inside.count else { return nil }
            fillers.append([ends[2 * index]] + inside[start..<start + length] + [ends[2 * index + 1]])
            start += length + 1
        }
        return fillers
    }

    /// A de Bruijn sequence of order 2 over `symbols`: every ordered pair exactly once.
    static func deBruijn(_ symbols: [UInt8]) -> [UInt8] {
        let k = symbols.count
        var a = [Int](repeating: 0, count: 2 * k)
        var sequence: [Int] = []
        func generate(_ t: Int, _ p: Int) {
            if t > 2 {
                if 2 % p == 0 { sequence += a[1...p] }
            } else {
                a[t] = a[t - p]
                generate(t + 1, p)
                for j in (a[t - p] + 1)..<k {
                    a[t] = j
                    generate(t + 1, t)
                }
            }
        }
        generate(1, 1)
        return sequence.map { symbols[$0] }
    }
}
