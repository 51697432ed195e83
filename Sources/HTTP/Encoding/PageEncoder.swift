import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

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
        /// For responses compressed as they are sent: the fastest that are still smaller than gzip.
        public static let perResponse = Levels(brotli: 4, zstd: 4, gzip: 6)
    }

    public let shared: Levels
    public let perResponse: Levels
    /// Templates made per second at most. One costs milliseconds (brotli 11 on a 20 KB page:
    /// ~30 ms), and a client asking for thousands of pages the cache has not kept could otherwise
    /// make the server compress at the strong level on every request; past the budget a page is
    /// compressed per response and its template made by a later request.
    public let templatesPerSecond: Int
    private let budget = Mutex<(second: Int, used: Int)>((0, 0))
    private let gzip: Gzip
    private let zstd: ZstdCodec
    public let counts = CompressionCounts()

    public init(shared: Levels = .shared, perResponse: Levels = .perResponse, templatesPerSecond: Int = 50) {
        self.shared = shared
        self.perResponse = perResponse
        self.templatesPerSecond = templatesPerSecond
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

    /// Whether a template may be made now (`templatesPerSecond`); counts it when so.
    public func mayMakeTemplate() -> Bool {
        let second = monotonicSeconds()
        return budget.withLock { budget in
            if budget.second != second { budget = (second, 0) }
            guard budget.used < templatesPerSecond else { return false }
            budget.used += 1
            return true
        }
    }

    /// `page` compressed once in `coding` at the shared level, checked by decoding a copy; nil when
    /// it cannot be made into a template (the page is then compressed per response).
    public func template(_ page: HoledPage, as coding: ContentCoding) -> EncodedTemplate? {
        let template: EncodedTemplate?
        switch coding {
        case .br:
            template = EncodedTemplate.build(
                page, encode: { BrotliCodec.template($0, inserting: $1, quality: shared.brotli) },
                decode: { BrotliCodec.decompress($0, limit: page.bytes.count) })
        case .zstd:
            template = EncodedTemplate.build(
                page, encode: { ZstdCodec.template($0, inserting: $1, level: shared.zstd) },
                decode: { ZstdCodec.decompress($0, limit: page.bytes.count) })
        case .gzip:
            template = EncodedTemplate.build(
                page, encode: { Gzip.template($0, inserting: $1, level: shared.gzip) },
                decode: { Gzip.decompress($0, limit: page.bytes.count) })
        case .identity: return nil
        }
        counts.record(template == nil ? .templateRefused : .compressedShared, coding)
        return template
    }
}

/// Whole seconds of a monotonic clock.
private func monotonicSeconds() -> Int {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return time.tv_sec
}

/// How many responses each coding compressed, and how: shown in `/metrics`.
public final class CompressionCounts: Sendable {
    public enum Event: String, CaseIterable, Sendable {
        /// A shared page compressed into a template (once per page and coding).
        case compressedShared = "shared"
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
