import TextSupport

/// Percent-decoding over UTF-8 bytes.
///
/// Works on raw bytes (not `Character`s): request paths and bodies pass through
/// here on every request, and per-character `String` work is far slower.
public enum PercentDecoding {
    /// Decodes `%XX` escapes (and `+` as space when `plusAsSpace`), then validates UTF-8.
    /// Returns nil for a malformed escape, invalid UTF-8 or a NUL byte: none of
    /// them can appear in a well-formed path, query or form value.
    public static func decode(_ bytes: UnsafeBufferPointer<UInt8>, plusAsSpace: Bool) -> String? {
        // Fast path: nothing to decode, only validate.
        var needsDecoding = false
        for byte in bytes {
            if byte == UInt8(ascii: "%") || (plusAsSpace && byte == UInt8(ascii: "+")) {
                needsDecoding = true
                break
            }
            if byte == 0 { return nil }
        }
        if !needsDecoding { return validUTF8String(bytes) }

        var decoded = [UInt8]()
        decoded.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "%") {
                guard index + 2 < bytes.count,
                    let high = ASCII.hexValue(bytes[index + 1]), let low = ASCII.hexValue(bytes[index + 2])
                else { return nil }
                let value = high << 4 | low
                if value == 0 { return nil }
                decoded.append(value)
                index += 3
            } else {
                decoded.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
                index += 1
            }
        }
        return decoded.withUnsafeBufferPointer { validUTF8String($0) }
    }

    static func validUTF8String(_ bytes: UnsafeBufferPointer<UInt8>) -> String? {
        String(validating: bytes, as: UTF8.self)
    }
}

/// Percent-encoding for building URLs and form bodies (RFC 3986 unreserved characters stay).
public enum PercentEncoding {
    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    public static func encode(_ string: String) -> String {
        var out = [UInt8]()
        out.reserveCapacity(string.utf8.count)
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."),
                UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.append(byte)
            default:
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// An IRI as a URI (RFC 3987 §3.1): every byte outside printable ASCII, and the few ASCII
    /// characters a URI may not hold (space, `"`, `<`, `>`, `\\`, `^`, `` ` ``, `{`, `|`, `}`),
    /// percent-encoded; everything else, escapes already there included, kept. For `Location`
    /// headers, feeds and sitemaps: a path such as `/articles/渡輪` goes out as
    /// `/articles/%E6%B8%A1%E8%BC%AA`.
    public static func uri(fromIRI iri: String) -> String {
        guard iri.utf8.contains(where: needsEncodingInURI) else { return iri }
        var out = [UInt8]()
        out.reserveCapacity(iri.utf8.count * 3)
        for byte in iri.utf8 {
            if needsEncodingInURI(byte) {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            } else {
                out.append(byte)
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func needsEncodingInURI(_ byte: UInt8) -> Bool {
        switch byte {
        case 0..<0x21, 0x7F...: true
        case UInt8(ascii: "\""), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"), UInt8(ascii: "^"),
            UInt8(ascii: "`"), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "}"):
            true
        default: false
        }
    }
}
