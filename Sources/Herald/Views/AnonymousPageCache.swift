import HTTP
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Pages as anonymous readers see them, rendered once and served as bytes until the database
/// changes (any committed write here) or a second passes (writes by another process, such as
/// `herald import`, or another server).
///
/// Anonymous pages differ between visitors only in their form tokens. A cached page is rendered
/// with a marker in place of the token — random per process, so no article can contain it — and
/// the visitor's own token is put in when it is served. Readers who are logged in, or have a
/// message to see, always get a freshly rendered page.
final class AnonymousPageCache: Sendable {
    static let maximumEntries = 4096
    static let maximumAgeMicroseconds: Int64 = 1_000_000
    static let tokenMarker = "csrf-marker-" + Sodium.hex(Sodium.randomBytes(16))
    private static let markerBytes = Array(tokenMarker.utf8)

    private struct Entry {
        let writeCount: Int
        let renderedAt: Int64
        let response: Response
        let hasMarker: Bool
    }

    private let database: Database
    private let entries = Mutex<[String: Entry]>([:])

    init(database: Database) {
        self.database = database
    }

    /// Whether this request may be answered from the cache.
    static func applies(to context: RequestContext) -> Bool {
        context.user == nil && context.flash == nil
    }

    /// The cached page for `key`, or `render`'s (given a context whose token is the marker).
    func response(
        _ key: String, context: RequestContext, render: (RequestContext) throws -> Response
    ) throws -> Response {
        let writeCount = database.writeCount
        let now = monotonicMicroseconds()
        let cached = entries.withLock { $0[key] }
        let entry: Entry
        if let cached, cached.writeCount == writeCount, now - cached.renderedAt < Self.maximumAgeMicroseconds {
            entry = cached
        } else {
            var markerContext = context
            markerContext.csrf = CSRFBinding(fixedToken: Self.tokenMarker)
            let response = try render(markerContext)
            entry = Entry(
                writeCount: writeCount, renderedAt: now, response: response,
                hasMarker: Self.offset(of: Self.markerBytes, in: response.body, from: 0) != nil)
            if response.status == .ok {
                entries.withLock { entries in
                    if entries.count >= Self.maximumEntries { entries.removeAll(keepingCapacity: true) }
                    entries[key] = entry
                }
            }
        }
        guard entry.hasMarker else { return entry.response }
        var response = entry.response
        response.body = Self.replacing(Self.markerBytes, with: Array(context.csrfToken.utf8), in: response.body)
        return response
    }

    private static func replacing(_ marker: [UInt8], with token: [UInt8], in body: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + 256)
        var start = 0
        while let found = offset(of: marker, in: body, from: start) {
            out.append(contentsOf: body[start..<found])
            out.append(contentsOf: token)
            start = found + marker.count
        }
        out.append(contentsOf: body[start...])
        return out
    }

    /// A byte search with `memchr` + `memcmp`: the generic `firstRange(of:)` on byte arrays is
    /// two orders of magnitude slower (it made a cached article page slower than rendering it).
    private static func offset(of needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard let first = needle.first, haystack.count - start >= needle.count else { return nil }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return nil }
                let last = hay.count - pin.count
                var index = start
                while index <= last {
                    guard let hit = memchr(base + index, Int32(first), last - index + 1) else { return nil }
                    let position = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + position, pinBase, pin.count) == 0 { return position }
                    index = position + 1
                }
                return nil
            }
        }
    }
}
