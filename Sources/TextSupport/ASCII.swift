/// Byte-level ASCII helpers shared by the HTTP parsers and by Herald: header values, cookies,
/// percent escapes and C libraries' messages all pass through here, some on every request, so
/// they work on UTF-8 bytes, never on `Character`s or through Foundation.
public enum ASCII {
    /// Space or horizontal tab: HTTP's optional whitespace around header values and list items.
    @inlinable
    public static func isSpaceOrTab(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 }

    /// Space, tab, CR or LF.
    @inlinable
    public static func isWhitespace(_ byte: UInt8) -> Bool { isSpaceOrTab(byte) || byte == 0x0A || byte == 0x0D }

    /// The value of a hexadecimal digit (`0`–`9`, `a`–`f`, `A`–`F`); nil for any other byte.
    @inlinable @inline(__always)
    public static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte &- UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte &- UInt8(ascii: "a") &+ 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte &- UInt8(ascii: "A") &+ 10
        default: nil
        }
    }
}

extension Substring.UTF8View {
    /// Without the bytes `isTrimmed` accepts at the end, and at the start too when `leading`.
    /// `isTrimmed` must accept only ASCII bytes, so that a cut never falls inside a character.
    @inlinable
    public func trimmingASCII(leading: Bool = true, where isTrimmed: (UInt8) -> Bool) -> Substring.UTF8View {
        var bytes = self
        if leading {
            while let first = bytes.first, isTrimmed(first) { bytes.removeFirst() }
        }
        while let last = bytes.last, isTrimmed(last) { bytes.removeLast() }
        return bytes
    }
}

extension Substring {
    /// Without spaces and tabs at either end (header values, list items).
    @inlinable
    public func trimmingASCIIWhitespace() -> Substring {
        Substring(utf8.trimmingASCII(where: ASCII.isSpaceOrTab))
    }
}

extension String {
    /// Without trailing spaces, tabs, CRs and LFs: a C library's message made ready for one log line.
    public func trimmingTrailingASCIIWhitespace() -> String {
        String(Substring(utf8[...].trimmingASCII(leading: false, where: ASCII.isWhitespace)))
    }
}

/// `125011` → `125,011`: numbers in messages, grouped by thousands with commas.
public func groupedDigits(_ value: Int) -> String {
    var digits = String(value)
    var index = digits.endIndex
    let start = digits.first == "-" ? digits.index(after: digits.startIndex) : digits.startIndex
    while digits.distance(from: start, to: index) > 3 {
        index = digits.index(index, offsetBy: -3)
        digits.insert(",", at: index)
    }
    return digits
}
