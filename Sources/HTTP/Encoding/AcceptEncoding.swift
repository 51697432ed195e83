import TextSupport

/// An `Accept-Encoding` header (RFC 9110 §12.5.3), read for the codings Herald offers.
///
/// Each item is `coding` with an optional `;q=value`; a coding named with `q=0` is refused, `*`
/// stands for every coding not named, and identity is acceptable unless refused by name or by
/// `*;q=0`. What cannot be read is ignored item by item, and a header that says nothing readable
/// leaves the response uncompressed: a malformed header never makes an error.
public struct AcceptEncoding: Sendable, Equatable {
    /// The q-value (0…1000, thousandths) of each coding Herald offers; nil when not named.
    private var named: [ContentCoding: Int] = [:]
    /// The q-value of `*`, when present.
    private var wildcard: Int?

    /// Headers longer than this are not read (a browser's is under 40 bytes): identity.
    public static let maximumLength = 1024

    public init(_ header: String?) {
        guard let header, header.utf8.count <= Self.maximumLength else { return }
        for item in header.utf8.split(separator: UInt8(ascii: ",")) {
            guard let (name, q) = Self.item(item) else { continue }
            if name == "*" {
                wildcard = wildcard.map { max($0, q) } ?? q
            } else if let coding = ContentCoding.allCases.first(where: { asciiCaseInsensitiveEquals(name, $0.rawValue) }
            ) {
                named[coding] = named[coding].map { max($0, q) } ?? q
            } else if asciiCaseInsensitiveEquals(name, "x-gzip") {
                // RFC 9110 §8.4.1.3: a recipient should consider x-gzip equivalent to gzip.
                named[.gzip] = named[.gzip].map { max($0, q) } ?? q
            }
        }
    }

    /// The q-value given to `coding`, by name or through `*`; identity is acceptable (q=1)
    /// unless refused.
    public func quality(of coding: ContentCoding) -> Int {
        if let q = named[coding] { return q }
        if let wildcard { return wildcard }
        return coding == .identity ? 1000 : 0
    }

    public func accepts(_ coding: ContentCoding) -> Bool { quality(of: coding) > 0 }

    /// The compressing coding to send, among `offered`: the highest q-value, ties broken by the
    /// order of `ContentCoding.compressing`; nil (send identity) when none is acceptable or
    /// identity is preferred to all of them.
    public func preferred(among offered: [ContentCoding] = ContentCoding.compressing) -> ContentCoding? {
        var best: (coding: ContentCoding, q: Int)?
        for coding in ContentCoding.compressing where offered.contains(coding) {
            let q = quality(of: coding)
            if q > 0, q > (best?.q ?? 0) { best = (coding, q) }
        }
        guard let best else { return nil }
        // Identity named above every compressing coding wins. Unnamed, it is acceptable but not
        // preferred: "br;q=0.5" still asks for br.
        if let identity = named[.identity], identity > best.q { return nil }
        return best.coding
    }

    /// One `coding[;q=value][;other=params]` item: the coding's name and its q-value, or nil when
    /// the item is empty or not well formed.
    private static func item(_ item: Substring.UTF8View.SubSequence) -> (String, Int)? {
        let parts = item.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false)
        guard let first = parts.first else { return nil }
        let name = Substring(String(decoding: first, as: UTF8.self)).trimmingASCIIWhitespace()
        guard !name.isEmpty, name.utf8.allSatisfy(isTokenByte) else { return nil }
        var q = 1000
        for parameter in parts.dropFirst() {
            let text = Substring(String(decoding: parameter, as: UTF8.self)).trimmingASCIIWhitespace()
            guard let equals = text.firstIndex(of: "=") else { return nil }
            let key = text[..<equals].trimmingASCIIWhitespace()
            guard key.lowercased() == "q" else { continue }
            guard let value = qValue(text[text.index(after: equals)...].trimmingASCIIWhitespace()) else {
                return nil
            }
            q = value
        }
        return (String(name), q)
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    static func qValue(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        guard bytes.count > 1 else { return value }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        var scale = 100
        for digit in bytes[2...] {
            guard digit >= UInt8(ascii: "0"), digit <= UInt8(ascii: "9") else { return nil }
            value += Int(digit - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    /// RFC 9110 `tchar`.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
            UInt8(ascii: "0")...UInt8(ascii: "9"):
            return true
        default:
            return Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
        }
    }
}
