/// HTML escaping over UTF-8 bytes.
///
/// Working on `String` characters costs grapheme breaking for every character; here the five
/// special characters are all ASCII and every byte of a multi-byte UTF-8 sequence is >= 0x80,
/// so a byte scan is both correct and fast. Text is checked and copied eight bytes at a time;
/// only words that contain a special character are handled byte by byte.
enum HTMLEscaping {
    /// The longest replacement is `&quot;`.
    static let maxExpansion = 6

    static func write(escaping string: String, to out: inout OutputBuffer) {
        withUTF8(string) { bytes in
            let destination = out.reserve(bytes.count * maxExpansion)
            out.advance(by: escape(bytes, into: destination))
        }
    }

    static func write(raw string: String, to out: inout OutputBuffer) {
        withUTF8(string) { out.write($0) }
    }

    /// For callers outside the renderer that escape into an array.
    static func append(escaping string: String, to out: inout [UInt8]) {
        var buffer = OutputBuffer(capacity: string.utf8.count * maxExpansion)
        write(escaping: string, to: &buffer)
        buffer.copy(into: &out)
    }

    /// Writes the escaped form of `source` to `destination`, which must have room for
    /// `maxExpansion` bytes per source byte, and returns how many bytes it wrote.
    static func escape(
        _ source: UnsafeBufferPointer<UInt8>, into destination: UnsafeMutablePointer<UInt8>
    ) -> Int {
        guard let base = source.baseAddress else { return 0 }
        let count = source.count
        var read = 0
        var written = 0
        while read < count {
            if read + 8 <= count {
                let word = UnsafeRawPointer(base + read).loadUnaligned(as: UInt64.self)
                if !containsSpecial(word) {
                    UnsafeMutableRawPointer(destination + written).storeBytes(of: word, as: UInt64.self)
                    read += 8
                    written += 8
                    continue
                }
            }
            written += escape(base[read], into: destination + written)
            read += 1
        }
        return written
    }

    @inline(__always)
    private static func escape(_ byte: UInt8, into destination: UnsafeMutablePointer<UInt8>) -> Int {
        let replacement: StaticString
        switch byte {
        case UInt8(ascii: "&"): replacement = "&amp;"
        case UInt8(ascii: "<"): replacement = "&lt;"
        case UInt8(ascii: ">"): replacement = "&gt;"
        case UInt8(ascii: "\""): replacement = "&quot;"
        case UInt8(ascii: "'"): replacement = "&#39;"
        default:
            destination.pointee = byte
            return 1
        }
        destination.update(from: replacement.utf8Start, count: replacement.utf8CodeUnitCount)
        return replacement.utf8CodeUnitCount
    }

    @inline(__always)
    private static func containsSpecial(_ word: UInt64) -> Bool {
        ByteSearch.contains(word, 0x26) || ByteSearch.contains(word, 0x3C)
            || ByteSearch.contains(word, 0x3E)
            || ByteSearch.contains(word, 0x22) || ByteSearch.contains(word, 0x27)
    }

    /// Native strings, which is every string built in Swift, are already contiguous UTF-8;
    /// only strings bridged from elsewhere pay for a copy.
    @inline(__always)
    private static func withUTF8(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        if string.utf8.withContiguousStorageIfAvailable(body) == nil {
            var string = string
            string.withUTF8(body)
        }
    }
}

/// Finding bytes eight at a time.
enum ByteSearch {
    /// Whether any byte of `word` equals `byte`: the classic "has a zero byte" bit trick
    /// applied to the word XORed with `byte` repeated.
    @inline(__always)
    static func contains(_ word: UInt64, _ byte: UInt8) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let x = word ^ (ones &* UInt64(byte))
        return (x &- ones) & ~x & highs != 0
    }

    static func firstIndex(
        of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int
    ) -> Int? {
        guard let base = bytes.baseAddress else { return nil }
        var index = start
        while index + 8 <= end,
            !contains(UnsafeRawPointer(base + index).loadUnaligned(as: UInt64.self), byte)
        {
            index += 8
        }
        while index < end {
            if base[index] == byte { return index }
            index += 1
        }
        return nil
    }
}

enum NumberFormatting {
    /// Writes decimal digits straight into the buffer; `String(value)` would build and then
    /// copy a temporary string for every number on the page.
    static func write(_ value: Int, to out: inout OutputBuffer) {
        // 19 digits and a sign.
        let destination = out.reserve(20)
        var magnitude = value.magnitude
        var digits = 0
        repeat {
            destination[digits] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: magnitude % 10)
            magnitude /= 10
            digits += 1
        } while magnitude > 0
        if value < 0 {
            destination[digits] = UInt8(ascii: "-")
            digits += 1
        }
        var written = UnsafeMutableBufferPointer(start: destination, count: digits)
        written.reverse()
        out.advance(by: digits)
    }

    static func write(_ value: Double, to out: inout OutputBuffer) {
        // Integral doubles print as integers ("3", not "3.0"), as in JavaScript, where most
        // Mustache data comes from; other values use Swift's shortest round-tripping form.
        if value.rounded() == value, value.magnitude < 1e15 {
            write(Int(value), to: &out)
        } else {
            HTMLEscaping.write(raw: value.description, to: &out)
        }
    }
}
