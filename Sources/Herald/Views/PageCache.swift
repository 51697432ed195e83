import HTTP
import Mustache
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// Pages rendered once and served as bytes until the database changes (any committed write here)
/// or a second passes (writes by another process, such as `herald import`, or another server).
///
/// Pages that differ between readers only in the form token and the reader's name are cached:
/// a page is rendered with markers in their place — random per process, so no article can
/// contain them — and each reader's own token and (escaped) name are put in as it is served.
/// Callers decide what else a cache key must hold (a logged-in reader's like state) and when a
/// page cannot be shared at all (a one-shot message; the reader's own comments on it).
final class PageCache: Sendable {
    static let maximumEntries = 4096
    static let maximumAgeMicroseconds: Int64 = 1_000_000
    static let tokenMarker = "csrf-marker-" + Sodium.hex(Sodium.randomBytes(16))
    static let nameMarker = "reader-marker-" + Sodium.hex(Sodium.randomBytes(16))
    private static let markerBytes = Array(tokenMarker.utf8)
    private static let nameMarkerBytes = Array(nameMarker.utf8)

    private struct Entry {
        let writeCount: Int
        let renderedAt: Int64
        let response: Response
        let hasMarker: Bool
        let hasNameMarker: Bool
    }

    private let database: Database
    private let entries = Mutex<[String: Entry]>([:])

    init(database: Database) {
        self.database = database
    }

    /// Whether this request may be answered from the cache at all: not with a message to show.
    static func applies(to context: RequestContext) -> Bool {
        context.flash == nil
    }

    /// The cached page for `key`, or `render`'s, given a context whose token is the marker and
    /// whose reader (if any) is called by the name marker and owns nothing (id 0).
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
            if context.user != nil { markerContext.user = User(id: 0, username: Self.nameMarker) }
            let response = try render(markerContext)
            entry = Entry(
                writeCount: writeCount, renderedAt: now, response: response,
                hasMarker: Self.offset(of: Self.markerBytes, in: response.body, from: 0) != nil,
                hasNameMarker: Self.offset(of: Self.nameMarkerBytes, in: response.body, from: 0) != nil)
            if response.status == .ok {
                entries.withLock { entries in
                    if entries.count >= Self.maximumEntries { entries.removeAll(keepingCapacity: true) }
                    entries[key] = entry
                }
            }
        }
        var response = entry.response
        if entry.hasMarker {
            response.body = Self.replacing(Self.markerBytes, with: Array(context.csrfToken.utf8), in: response.body)
        }
        if entry.hasNameMarker, let user = context.user {
            response.body = Self.replacing(
                Self.nameMarkerBytes, with: Array(escapeHTML(user.username).utf8), in: response.body)
        }
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
