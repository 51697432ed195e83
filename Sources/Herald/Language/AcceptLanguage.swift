/// Reads an `Accept-Language` header (RFC 9110 §12.5.4) for the interface languages Herald has.
///
/// Items are `tag[;q=value]`, tried by q-value (ties in the header's order); `q=0` refuses one.
/// An item that cannot be read is skipped and a header that says nothing Herald has gives nil:
/// a malformed header never makes an error, it only leaves the choice to the site's default.
enum AcceptLanguage {
    /// Headers longer than this are not read (a browser's is under 100 bytes).
    static let maximumLength = 1024

    static func preferred(_ header: String?) -> InterfaceLanguage? {
        guard let header, header.utf8.count <= maximumLength else { return nil }
        var best: (language: InterfaceLanguage, q: Int)?
        for item in header.split(separator: ",") {
            guard let (tag, q) = Self.item(item), q > 0, q > (best?.q ?? 0),
                let language = InterfaceLanguage(tag: tag)
            else { continue }
            best = (language, q)
        }
        return best?.language
    }

    /// One item: its tag and q-value in thousandths, or nil when it is not well formed.
    private static func item(_ item: Substring) -> (Substring, Int)? {
        let parts = item.split(separator: ";", omittingEmptySubsequences: false)
        guard let first = parts.first else { return nil }
        let tag = first.trimmingBlanks()
        guard !tag.isEmpty, tag.utf8.count <= 35,
            tag.utf8.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: "*") })
        else { return nil }
        var q = 1000
        for parameter in parts.dropFirst() {
            let text = parameter.trimmingBlanks()
            guard text.hasPrefix("q=") || text.hasPrefix("Q="), let value = qValue(text.dropFirst(2)) else {
                return nil
            }
            q = value
        }
        return (tag, q)
    }

    /// `0`, `1`, `0.5`, `0.123`, `1.000`: thousandths, or nil.
    private static func qValue(_ text: Substring) -> Int? {
        let bytes = Array(text.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "0") || first == UInt8(ascii: "1") else { return nil }
        var value = Int(first - UInt8(ascii: "0")) * 1000
        if bytes.count == 1 { return value }
        guard bytes[1] == UInt8(ascii: "."), bytes.count <= 5 else { return nil }
        var scale = 100
        for byte in bytes.dropFirst(2) {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value += Int(byte - UInt8(ascii: "0")) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }
}

extension Substring {
    /// Without the spaces and tabs around it (optional whitespace, RFC 9110 §5.6.3).
    fileprivate func trimmingBlanks() -> Substring {
        var text = self
        while let first = text.first, first == " " || first == "\t" { text = text.dropFirst() }
        while let last = text.last, last == " " || last == "\t" { text = text.dropLast() }
        return text
    }
}
