import HTTP

/// Where a shared page's reader-specific values go: the markers a page rendered for the cache
/// holds (`PageCache`), found once, and the bytes each reader's copy puts in their place.
struct PageSlot {
    enum Value: Int, CaseIterable {
        /// The form token: always `tokenWidth` bytes.
        case token
        /// "Signed in as" and the reader's name, padded to a fixed width.
        case name
        /// The count of unread replies, padded to a fixed width.
        case unread
        /// The header's return address for Log in and Register: the same for every reader of one
        /// address, so a copy is compressed once per address (`SharedPageEncodings`), not filled.
        case here

        var marker: [UInt8] {
            switch self {
            case .token: PageSlot.tokenMarker
            case .name: PageSlot.nameMarker
            case .unread: PageSlot.unreadMarker
            case .here: PageSlot.hereMarker
            }
        }
    }

    static let tokenMarker = Array(PageCache.tokenMarker.utf8)
    static let nameMarker = Array(PageCache.nameMarker.utf8)
    static let unreadMarker = Array(PageCache.unreadMarker.utf8)
    static let hereMarker = Array(PageCache.hereMarker.utf8)

    let offset: Int
    let value: Value
    var length: Int { value.marker.count }

    /// One reader's bytes for each kind of slot.
    struct Values {
        var token: [UInt8]
        var name: [UInt8]
        var unread: [UInt8]
        var here: [UInt8]

        subscript(value: Value) -> [UInt8] {
            switch value {
            case .token: token
            case .name: name
            case .unread: unread
            case .here: here
            }
        }
    }

    /// Every marker in `body`, in order.
    static func slots(in body: [UInt8]) -> [PageSlot] {
        var slots: [PageSlot] = []
        for value in Value.allCases {
            slots += ByteSearch.offsets(of: value.marker, in: body).map { PageSlot(offset: $0, value: value) }
        }
        return slots.sorted { $0.offset < $1.offset }
    }

    /// The body with each slot's marker replaced by the reader's value.
    static func filling(_ slots: [PageSlot], of body: [UInt8], values: Values) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(body.count + slots.count * max(values.token.count, values.here.count) + values.name.count)
        var start = 0
        for slot in slots {
            out.append(contentsOf: body[start..<slot.offset])
            out.append(contentsOf: values[slot.value])
            start = slot.offset + slot.length
        }
        out.append(contentsOf: body[start...])
        return out
    }

    // MARK: Fixed widths, so that one compressed copy serves every reader

    /// A form token: base64url of an HMAC-SHA256, 43 characters.
    static let tokenWidth = 43
    /// `<strong>NAME</strong>` for the longest username (ASCII letters, digits, `_`, `-`: never escaped).
    static let nameWidth = Views.signedInName(String(repeating: "n", count: AccountRules.usernameLength.upperBound))
        .utf8.count
    /// The badge for a count of twelve digits.
    static let unreadWidth =
        InterfaceLanguage.allCases.map { Views.unreadBadge(count: 999_999_999_999, language: $0).utf8.count }.max() ?? 0

    /// `value` followed by spaces up to `width` (spaces where the layout puts these values, at the
    /// end of an inline run, are not shown); unchanged when it is already as long.
    static func padded(_ value: String, to width: Int) -> [UInt8] {
        var bytes = Array(value.utf8)
        if bytes.count < width { bytes += [UInt8](repeating: 0x20, count: width - bytes.count) }
        return bytes
    }

    /// The holes' kinds, in `Value` order (token, name, unread), with their fillers.
    static let holeKinds: [HoledPage.Kind] = {
        let widths = [tokenWidth, nameWidth, unreadWidth]
        // Fixed widths well within what HoleFillers can make: a failure here is a programming error.
        let fillers = HoleFillers.fillers(widths: widths) ?? []
        return zip(widths, fillers).map { HoledPage.Kind(width: $0, filler: $1) }
    }()

    /// The page for the template of one return address: `here` filled in, every other slot holding
    /// its kind's filler. Nil when it cannot be one (see `HoledPage`).
    static func holedPage(_ slots: [PageSlot], of body: [UInt8], here: [UInt8]) -> HoledPage? {
        guard holeKinds.count == 3 else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(body.count)
        var holes: [HoledPage.Hole] = []
        var start = 0
        for slot in slots {
            out.append(contentsOf: body[start..<slot.offset])
            if slot.value == .here {
                out.append(contentsOf: here)
            } else {
                holes.append(HoledPage.Hole(offset: out.count, kind: slot.value.rawValue))
                out.append(contentsOf: holeKinds[slot.value.rawValue].filler)
            }
            start = slot.offset + slot.length
        }
        out.append(contentsOf: body[start...])
        return HoledPage(bytes: out, holes: holes, kinds: holeKinds)
    }
}
