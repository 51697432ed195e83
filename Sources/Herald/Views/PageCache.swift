import HTTP
import Mustache
import Synchronization
import TextSupport

/// Pages rendered once and served as bytes until the database changes (any committed write here)
/// or a second passes (writes by another process, such as `herald import`, or another server).
///
/// Pages that differ between readers only in the form token and the reader's name are cached:
/// a page is rendered with markers in their place — random per process, so no article can
/// contain them — and each reader's own token and (escaped) name are put in as it is served.
/// What else a key must hold (a logged-in reader's like state), and when a page cannot be shared
/// at all (the reader's own comments on it), each page type says itself (`CachedPages.swift`).
final class PageCache: Sendable {
    static let maximumEntries = 4096
    static let maximumAgeMicroseconds: Int64 = 1_000_000
    static let tokenMarker = "csrf-marker-" + Sodium.hex(Sodium.randomBytes(16))
    static let nameMarker = "reader-marker-" + Sodium.hex(Sodium.randomBytes(16))
    private static let markerBytes = Array(tokenMarker.utf8)
    private static let nameMarkerBytes = Array(nameMarker.utf8)
    /// Where the header's Log in and Register links bring the reader back to: their own address.
    static let hereMarker = "here-marker-" + Sodium.hex(Sodium.randomBytes(16))
    private static let hereMarkerBytes = Array(hereMarker.utf8)
    /// Where the header's count of unread replies goes (nothing when there are none).
    static let unreadMarker = "unread-marker-" + Sodium.hex(Sodium.randomBytes(16))
    private static let unreadMarkerBytes = Array(unreadMarker.utf8)

    private struct Entry {
        let writeCount: Int
        let renderedAt: Int64
        /// The page with markers where the reader's token and name go.
        let response: Response
        /// Where the markers are in the body, in order: found once when the page is rendered,
        /// so serving it is one pass of copying.
        let slots: [Slot]
        /// A page whose only slots are the header's return address (an anonymous reader's front
        /// or section page) is the same for every reader of one address: the last copy filled in
        /// is kept and served again while the address is the same, instead of copying the page
        /// anew for each request.
        let lastCopy = LastCopy()
        /// Found once, when the page is rendered.
        let onlyReturnAddress: Bool

        init(writeCount: Int, renderedAt: Int64, response: Response, slots: [Slot]) {
            self.writeCount = writeCount
            self.renderedAt = renderedAt
            self.response = response
            self.slots = slots
            onlyReturnAddress = !slots.isEmpty && slots.allSatisfy { $0.value == .here }
        }
    }

    private final class LastCopy: Sendable {
        let filled = Mutex<(here: [UInt8], body: [UInt8])?>(nil)
    }

    private struct Slot {
        /// One reader's bytes for each kind of slot.
        struct Values {
            let token: [UInt8]
            let name: [UInt8]
            let here: [UInt8]
            let unread: [UInt8]
        }

        enum Value { case token, name, here, unread }
        let offset: Int
        let value: Value
        var length: Int {
            switch value {
            case .token: markerBytes.count
            case .name: nameMarkerBytes.count
            case .here: hereMarkerBytes.count
            case .unread: unreadMarkerBytes.count
            }
        }
    }

    private let database: Database
    private let entries = Mutex<[String: Entry]>([:])
    private let hitCount = Atomic<Int>(0)
    private let missCount = Atomic<Int>(0)

    /// Shared pages served from the cache, and rendered for it, since start.
    var counts: (hits: Int, misses: Int) {
        (hitCount.load(ordering: .relaxed), missCount.load(ordering: .relaxed))
    }

    init(database: Database) {
        self.database = database
    }

    /// The cached copy of `page`, or `render`'s, given a context whose token is the marker and
    /// whose reader (if any) is called by the name marker and owns nothing (id 0). A page that
    /// belongs to one reader (no key), or a request with a one-shot message to show, is rendered
    /// for the reader as it is.
    func response(
        for page: some CachedPage, context: RequestContext, render: (RequestContext) throws -> Response
    ) throws -> Response {
        guard context.flash == nil, let key = page.cacheKey else { return try render(context) }
        let writeCount = database.writeCount
        let now = monotonicMicroseconds()
        let cached = entries.withLock { $0[key] }
        let entry: Entry
        if let cached, cached.writeCount == writeCount, now - cached.renderedAt < Self.maximumAgeMicroseconds {
            hitCount.add(1, ordering: .relaxed)
            entry = cached
        } else {
            missCount.add(1, ordering: .relaxed)
            var markerContext = context
            markerContext.csrf = CSRFBinding(fixedToken: Self.tokenMarker)
            // The roles stay: the header's links follow them, and the key holds them (`HeaderLinks`).
            if let user = context.user {
                markerContext.user = User(id: 0, username: Self.nameMarker, roles: user.roles)
            }
            markerContext.requestTarget = Self.hereMarker
            let response = try render(markerContext)
            entry = Entry(
                writeCount: writeCount, renderedAt: now, response: response, slots: Self.slots(in: response.body))
            if response.status == .ok {
                entries.withLock { entries in
                    if entries.count >= Self.maximumEntries { entries.removeAll(keepingCapacity: true) }
                    entries[key] = entry
                }
            }
        }
        var response = entry.response
        if entry.onlyReturnAddress {
            let here = Array(Views.here(context.requestTarget).utf8)
            if let last = entry.lastCopy.filled.withLock({ $0 }), last.here == here {
                response.body = last.body
            } else {
                let empty: [UInt8] = []
                response.body = Self.filling(
                    entry.slots, of: response.body,
                    values: Slot.Values(token: empty, name: empty, here: here, unread: empty))
                let body = response.body
                entry.lastCopy.filled.withLock { $0 = (here, body) }
            }
        } else if !entry.slots.isEmpty {
            // Each value only when the page has a slot for it: asking for a token mints one (and a cookie).
            let token = entry.slots.contains { $0.value == .token } ? Array(context.csrfToken.utf8) : []
            let name =
                entry.slots.contains { $0.value == .name }
                ? (context.user.map { Array(escapeHTML($0.username).utf8) } ?? Self.nameMarkerBytes) : []
            let here =
                entry.slots.contains { $0.value == .here } ? Array(Views.here(context.requestTarget).utf8) : []
            let unread =
                entry.slots.contains { $0.value == .unread } ? Array(Views.unreadBadge(for: context.user).utf8) : []
            response.body = Self.filling(
                entry.slots, of: response.body,
                values: Slot.Values(token: token, name: name, here: here, unread: unread))
        }
        return response
    }

    /// The body with each slot's marker replaced by the reader's value.
    private static func filling(_ slots: [Slot], of body: [UInt8], values: Slot.Values) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(
            body.count + slots.count * max(values.token.count, values.name.count, values.here.count)
                + values.unread.count)
        var start = 0
        for slot in slots {
            out.append(contentsOf: body[start..<slot.offset])
            switch slot.value {
            case .token: out.append(contentsOf: values.token)
            case .name: out.append(contentsOf: values.name)
            case .here: out.append(contentsOf: values.here)
            case .unread: out.append(contentsOf: values.unread)
            }
            start = slot.offset + slot.length
        }
        out.append(contentsOf: body[start...])
        return out
    }

    /// Every marker in `body`, in order.
    private static func slots(in body: [UInt8]) -> [Slot] {
        var slots: [Slot] = []
        for (marker, value) in [
            (markerBytes, Slot.Value.token), (nameMarkerBytes, .name), (hereMarkerBytes, .here),
            (unreadMarkerBytes, .unread),
        ] {
            slots += ByteSearch.offsets(of: marker, in: body).map { Slot(offset: $0, value: value) }
        }
        return slots.sorted { $0.offset < $1.offset }
    }
}
