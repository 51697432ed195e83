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
    /// Where the header's Log in and Register links bring the reader back to: their own address.
    static let hereMarker = "here-marker-" + Sodium.hex(Sodium.randomBytes(16))
    /// Where the header's count of unread replies goes (nothing when there are none).
    static let unreadMarker = "unread-marker-" + Sodium.hex(Sodium.randomBytes(16))

    private struct Entry {
        let writeCount: Int
        let renderedAt: Int64
        /// The page with markers where the reader's token and name go.
        let response: Response
        /// Where the markers are in the body, in order: found once when the page is rendered,
        /// so serving it is one pass of copying.
        let slots: [PageSlot]
        /// A page whose only slots are the header's return address (an anonymous reader's front
        /// or section page) is the same for every reader of one address: the last copy filled in
        /// is kept and served again while the address is the same, instead of copying the page
        /// anew for each request.
        let lastCopy = LastCopy()
        /// Found once, when the page is rendered.
        let onlyReturnAddress: Bool
        /// The page compressed once per coding; handed on to the next rendering while the bytes
        /// are the same, so a page is compressed again only when it changes.
        let encodings: SharedPageEncodings

        init(writeCount: Int, renderedAt: Int64, response: Response, slots: [PageSlot], encodings: SharedPageEncodings)
        {
            self.writeCount = writeCount
            self.renderedAt = renderedAt
            self.response = response
            self.slots = slots
            self.encodings = encodings
            onlyReturnAddress = !slots.isEmpty && slots.allSatisfy { $0.value == .here }
        }
    }

    private final class LastCopy: Sendable {
        let filled = Mutex<(here: [UInt8], body: [UInt8])?>(nil)
    }

    private let database: Database
    private let encoder: PageEncoder
    /// Entries by page and interface language: the same address is one page per language.
    private struct Key: Hashable {
        let page: String
        let language: InterfaceLanguage
    }

    private let entries = Mutex<[Key: Entry]>([:])
    private let hitCount = Atomic<Int>(0)
    private let missCount = Atomic<Int>(0)

    /// Shared pages served from the cache, and rendered for it, since start.
    var counts: (hits: Int, misses: Int) {
        (hitCount.load(ordering: .relaxed), missCount.load(ordering: .relaxed))
    }

    init(database: Database, encoder: PageEncoder = PageEncoder()) {
        self.database = database
        self.encoder = encoder
    }

    /// The cached copy of `page`, or `render`'s, given a context whose token is the marker and
    /// whose reader (if any) is called by the name marker and owns nothing (id 0). A page that
    /// belongs to one reader (no key), or a request with a one-shot message to show, is rendered
    /// for the reader as it is.
    func response(
        for page: some CachedPage, context: RequestContext, render: (RequestContext) throws -> Response
    ) throws -> Response {
        guard context.flash == nil, let pageKey = page.cacheKey else { return try render(context) }
        let key = Key(page: pageKey, language: context.language)
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
            let slots = PageSlot.slots(in: response.body)
            let encodings =
                cached.flatMap {
                    $0.response.status == response.status && $0.encodings.isFor(response.body) ? $0.encodings : nil
                }
                ?? SharedPageEncodings(encoder: encoder, body: response.body, slots: slots)
            entry = Entry(
                writeCount: writeCount, renderedAt: now, response: response, slots: slots, encodings: encodings)
            if response.status == .ok {
                entries.withLock { entries in
                    if entries.count >= Self.maximumEntries { entries.removeAll(keepingCapacity: true) }
                    entries[key] = entry
                }
            }
        }
        var response = entry.response
        let values: PageSlot.Values
        if entry.onlyReturnAddress {
            let here = Array(Views.here(context.requestTarget).utf8)
            values = PageSlot.Values(token: [], name: [], unread: [], here: here)
            if let last = entry.lastCopy.filled.withLock({ $0 }), last.here == here {
                response.body = last.body
            } else {
                response.body = PageSlot.filling(entry.slots, of: response.body, values: values)
                let body = response.body
                entry.lastCopy.filled.withLock { $0 = (here, body) }
            }
        } else {
            values = Self.values(for: entry.slots, context: context)
            if !entry.slots.isEmpty {
                response.body = PageSlot.filling(entry.slots, of: response.body, values: values)
            }
        }
        // Only a page the cache keeps has a template: anything else is compressed per response.
        if response.status == .ok {
            let encodings = entry.encodings
            response.precompressed = Precompressed { coding in
                encodings.body(in: coding, values: values.withFillersForEmptyKinds)
            }
        }
        return response
    }

    /// One reader's values for the slots a page has. Each only when the page has a slot for it:
    /// asking for a token mints one (and a cookie).
    private static func values(for slots: [PageSlot], context: RequestContext) -> PageSlot.Values {
        func has(_ value: PageSlot.Value) -> Bool { slots.contains { $0.value == value } }
        return PageSlot.Values(
            token: has(.token) ? Array(context.csrfToken.utf8) : [],
            name: has(.name)
                ? PageSlot.padded(
                    context.user.map { Views.signedInName($0.username) } ?? Self.nameMarker, to: PageSlot.nameWidth)
                : [],
            unread: has(.unread)
                ? PageSlot.padded(
                    Views.unreadBadge(for: context.user, language: context.language), to: PageSlot.unreadWidth) : [],
            here: has(.here) ? Array(Views.here(context.requestTarget).utf8) : [])
    }
}

extension PageSlot.Values {
    /// A page's template has a hole for each kind it holds; a kind it does not hold takes any
    /// value of the kind's width, so its filler stands in.
    var withFillersForEmptyKinds: PageSlot.Values {
        var values = self
        let kinds = PageSlot.holeKinds
        if values.token.isEmpty { values.token = kinds[0].filler }
        if values.name.isEmpty { values.name = kinds[1].filler }
        if values.unread.isEmpty { values.unread = kinds[2].filler }
        return values
    }
}
