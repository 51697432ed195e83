import HTTP
import Synchronization

/// A shared page compressed once per coding — at the strong level, when a reader first asks for
/// it in that coding — and served to every reader from those bytes with their own values written
/// in (`EncodedTemplate`).
///
/// The header's return address (`?next=` on Log in and Register) follows the request's address,
/// not the reader, and has no fixed width: a page keeps a template for each of the first
/// `maximumAddresses` addresses it is read at (one, nearly always); any other address is
/// compressed per response, so that made-up query strings cannot make the server compress pages
/// at the strong level. Kept across the page cache's refills while the page's bytes are the same.
final class SharedPageEncodings: Sendable {
    static let maximumAddresses = 2

    private enum State: Sendable {
        /// One request is compressing it; the others meanwhile serve what there was, or compress
        /// their copy per response.
        case building(previous: EncodedTemplate?)
        /// At the per-response level (`strong: false`) until the strong one is made.
        case ready(EncodedTemplate, strong: Bool)
        /// It cannot be a template (`HoledPage`, `EncodedTemplate.build`): per response.
        case refused
    }

    private struct Variant: Sendable {
        let here: [UInt8]
        var states: [ContentCoding: State] = [:]
    }

    private let variants = Mutex<[Variant]>([])
    private let encoder: PageEncoder
    /// The page as rendered with markers, and where they are.
    private let body: [UInt8]
    private let slots: [PageSlot]

    init(encoder: PageEncoder, body: [UInt8], slots: [PageSlot]) {
        self.encoder = encoder
        self.body = body
        self.slots = slots
    }

    /// Whether these encodings were made from `body` (the page is unchanged since).
    func isFor(_ body: [UInt8]) -> Bool { self.body == body }

    /// The page in `coding` with one reader's `values`, or nil to have it compressed per response.
    ///
    /// A page's first template is made at once at the per-response level (it costs what
    /// compressing this one response would); a later request makes it again at the strong level
    /// while the encoder's budget for that lasts, and serves the stronger bytes from then on.
    func body(in coding: ContentCoding, values: PageSlot.Values) -> [UInt8]? {
        let filled = [values.token, values.name, values.unread]
        enum Next {
            case serve(EncodedTemplate)
            case build(strong: Bool, serving: EncodedTemplate?)
            case none
        }
        let next: Next = variants.withLock { variants in
            guard let index = variants.firstIndex(where: { $0.here == values.here }) else {
                guard variants.count < Self.maximumAddresses else { return .none }
                variants.append(Variant(here: values.here, states: [coding: .building(previous: nil)]))
                return .build(strong: false, serving: nil)
            }
            switch variants[index].states[coding] {
            case .ready(let template, strong: true): return .serve(template)
            case .ready(let template, strong: false):
                guard encoder.mayMakeStrongTemplate() else { return .serve(template) }
                variants[index].states[coding] = .building(previous: template)
                return .build(strong: true, serving: template)
            case .building(let previous): return previous.map(Next.serve) ?? .none
            case .refused: return .none
            case nil:
                variants[index].states[coding] = .building(previous: nil)
                return .build(strong: false, serving: nil)
            }
        }
        switch next {
        case .serve(let template): return template.filled(filled)
        case .none: return nil
        case .build(let strong, let serving):
            let made = PageSlot.holedPage(slots, of: body, here: values.here).flatMap {
                encoder.template($0, as: coding, strong: strong)
            }
            // A strong template that could not be made leaves the first one in use.
            let template = made ?? serving
            variants.withLock { variants in
                if let index = variants.firstIndex(where: { $0.here == values.here }) {
                    variants[index].states[coding] =
                        template.map { .ready($0, strong: made != nil ? strong : true) } ?? .refused
                }
            }
            return template?.filled(filled)
        }
    }
}
