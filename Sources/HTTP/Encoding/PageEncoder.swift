import Synchronization
import TextSupport

/// What compresses responses: pages shared by many readers once, at strong levels, into
/// templates; everything else per response at fast levels. Both levels of each coding were chosen
/// by measurement (ARCHITECTURE.md, "Compression"; `Benchmarks/compression-levels.sh`).
public final class PageEncoder: Sendable {
    public struct Levels: Sendable {
        public var brotli: Int32
        public var zstd: Int32
        public var gzip: Int32

        public init(brotli: Int32, zstd: Int32, gzip: Int32) {
            self.brotli = brotli
            self.zstd = zstd
            self.gzip = gzip
        }

        /// For pages compressed once and served many times.
        public static let shared = Levels(brotli: 11, zstd: 19, gzip: 9)
        /// For responses compressed as they are sent: the fastest that are still smaller than gzip -6
        /// (zstd comes within 2 % of it on pages under 5 KB, where only its level 19 is smaller).
        public static let perResponse = Levels(brotli: 4, zstd: 5, gzip: 6)
    }

    public let shared: Levels
    public let perResponse: Levels
    /// CPU time per second that strong templates may take (microseconds). One costs milliseconds
    /// (brotli 11: 8 ms for a 7 KB article, 26 ms for the 22 KB front page); a page is first
    /// made a template at the per-response levels, which costs what compressing one response
    /// does, and made again at the strong levels while this budget lasts — so asking for
    /// thousands of pages cannot make the server spend more than this on strong compression.
    public let strongMicrosecondsPerSecond: Int
    private let budget = Mutex<(second: Int, used: Int)>((0, 0))
    private let gzip: Gzip
    private let zstd: ZstdCodec
    public let counts = CompressionCounts()

    public init(
        shared: Levels = .shared, perResponse: Levels = .perResponse, strongMicrosecondsPerSecond: Int = 200_000
    ) {
        self.shared = shared
        self.perResponse = perResponse
        self.strongMicrosecondsPerSecond = strongMicrosecondsPerSecond
        gzip = Gzip(level: perResponse.gzip)
        zstd = ZstdCodec(level: perResponse.zstd)
    }

    /// `body` in `coding`, compressed now at the per-response level; nil if the library fails.
    public func compress(_ body: [UInt8], as coding: ContentCoding) -> [UInt8]? {
        let encoded: [UInt8]?
        switch coding {
        case .br: encoded = BrotliCodec.compress(body, quality: perResponse.brotli)
        case .zstd: encoded = zstd.compress(body)
        case .gzip: encoded = gzip.compress(body)
        case .identity: return body
        }
        if encoded != nil { counts.record(.compressedPerResponse, coding) }
        return encoded
    }

    /// Whether this second's budget for strong templates has time left.
    public func mayMakeStrongTemplate() -> Bool {
        let second = Int(monotonicMicroseconds() / 1_000_000)
        return budget.withLock { budget in
            if budget.second != second { budget = (second, 0) }
            return budget.used < strongMicrosecondsPerSecond
        }
    }

    /// `page` compressed once in `coding` — at the strong level, or at the per-response level for
    /// a first template (`strong: false`) — and checked by decoding a copy; nil when it cannot be
    /// made into a template (the page is then compressed per response).
    public func template(_ page: HoledPage, as coding: ContentCoding, strong: Bool = true) -> EncodedTemplate? {
        let levels = strong ? shared : perResponse
        let started = Int(monotonicMicroseconds())
        let template: EncodedTemplate?
        switch coding {
        case .br:
            template = EncodedTemplate.build(
                page, encode: { BrotliCodec.template($0, inserting: $1, quality: levels.brotli) },
                decode: { BrotliCodec.decompress($0, limit: page.bytes.count) })
        case .zstd:
            template = EncodedTemplate.build(
                page, encode: { ZstdCodec.template($0, inserting: $1, level: levels.zstd) },
                decode: { ZstdCodec.decompress($0, limit: page.bytes.count) })
        case .gzip:
            template = EncodedTemplate.build(
                page, encode: { Gzip.template($0, inserting: $1, level: levels.gzip) },
                decode: { Gzip.decompress($0, limit: page.bytes.count) })
        case .identity: return nil
        }
        if strong {
            let now = Int(monotonicMicroseconds())
            budget.withLock { budget in
                if budget.second == now / 1_000_000 {
                    budget.used += now - started
                } else {
                    budget = (now / 1_000_000, 0)
                }
            }
        }
        counts.record(template == nil ? .templateRefused : strong ? .compressedShared : .compressedFirst, coding)
        return template
    }
}


/// How many responses each coding compressed, and how: shown in `/metrics`.
public final class CompressionCounts: Sendable {
    public enum Event: String, CaseIterable, Sendable {
        /// A shared page compressed into a template at the strong level (once per page and coding).
        case compressedShared = "shared"
        /// A shared page's first template, at the per-response level (made again at the strong
        /// level when the budget allows).
        case compressedFirst = "first"
        /// A response compressed as it was sent.
        case compressedPerResponse = "per_response"
        /// A shared page that could not be made a template (compressed per response instead).
        case templateRefused = "refused"
        /// A response served from a template, the reader's values written in.
        case servedFromTemplate = "from_template"
    }

    /// One count per event and coding; counted on every compressed response, so no allocation.
    private let counts = Mutex<[Int]>(
        [Int](repeating: 0, count: Event.allCases.count * ContentCoding.allCases.count))

    public init() {}

    public func record(_ event: Event, _ coding: ContentCoding) {
        let index = Self.index(event, coding)
        counts.withLock { $0[index] += 1 }
    }

    public func count(_ event: Event, _ coding: ContentCoding) -> Int {
        let index = Self.index(event, coding)
        return counts.withLock { $0[index] }
    }

    private static func index(_ event: Event, _ coding: ContentCoding) -> Int {
        Event.allCases.firstIndex(of: event)! * ContentCoding.allCases.count
            + ContentCoding.allCases.firstIndex(of: coding)!
    }
}
