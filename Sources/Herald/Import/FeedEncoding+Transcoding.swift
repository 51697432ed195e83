extension FeedEncoding {
    /// The feed as UTF-8 that every later step can trust: valid, without a byte-order mark or NUL, and
    /// with an XML declaration, if it has one, naming UTF-8, so libxml2 has no encoding to switch to.
    ///
    /// Transcoding is done here with the standard library, not iconv or Foundation: it reports bad input
    /// instead of guessing, cannot crash on it, and covers the four encodings Herald reads.
    static func utf8Text(of bytes: [UInt8]) throws(FeedIssue) -> [UInt8] {
        let (encoding, bytesToSkip) = try decide(bytes)
        let body = bytes[bytesToSkip...]
        var text: [UInt8]
        switch encoding {
        case .utf8:
            guard String(validating: body, as: UTF8.self) != nil else {
                throw FeedIssue("the file is not valid UTF-8 (and declares no other encoding)")
            }
            text = Array(body)
        case .utf16(let bigEndian):
            text = try utf8(fromUTF16: body, bigEndian: bigEndian)
        case .isoLatin1:
            text = utf8(fromSingleBytes: body) { Unicode.Scalar($0) }
        case .windows1252:
            text = utf8(fromSingleBytes: body) { byte in
                guard (0x80...0x9F).contains(byte) else { return Unicode.Scalar(byte) }
                let mapped = windows1252Range80to9F[Int(byte - 0x80)]
                return mapped == 0 ? Unicode.Scalar(byte) : Unicode.Scalar(mapped) ?? Unicode.Scalar(byte)
            }
        }
        // XML forbids NUL even as &#0;, and JSON only allows it escaped; one here is a wrong guess of
        // the encoding or a file built to make a byte scan and the parser disagree.
        if text.contains(0) {
            throw FeedIssue(
                "the file contains a NUL character (read as \(encoding.name)), which no XML or JSON feed may hold")
        }
        // A second mark would hide the declaration from `XMLDeclaration` but not from libxml2, which
        // skips a UTF-8 mark and would then read the declaration's encoding itself.
        if text.starts(with: [0xEF, 0xBB, 0xBF]) {
            throw FeedIssue("the file starts with two byte-order marks")
        }
        try XMLDeclaration.rewriteNamingUTF8(&text)
        return text
    }

    private static func utf8(fromUTF16 bytes: ArraySlice<UInt8>, bigEndian: Bool) throws(FeedIssue) -> [UInt8] {
        guard bytes.count % 2 == 0 else {
            throw FeedIssue("the file is UTF-16 but ends in half a character (truncated?)")
        }
        let units = stride(from: bytes.startIndex, to: bytes.endIndex, by: 2).lazy.map { index in
            let (high, low) = bigEndian ? (bytes[index], bytes[index + 1]) : (bytes[index + 1], bytes[index])
            return UInt16(high) << 8 | UInt16(low)
        }
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count)
        let failed = transcode(units.makeIterator(), from: UTF16.self, to: UTF8.self, stoppingOnError: true) {
            output.append($0)
        }
        if failed { throw FeedIssue("the file is not valid UTF-16 (an unpaired surrogate)") }
        return output
    }

    private static func utf8(fromSingleBytes bytes: ArraySlice<UInt8>, _ scalar: (UInt8) -> Unicode.Scalar) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(bytes.count + bytes.count / 4)
        for byte in bytes {
            if byte < 0x80 {
                output.append(byte)
            } else {
                UTF8.encode(scalar(byte)) { output.append($0) }
            }
        }
        return output
    }

    /// Windows-1252 0x80–0x9F, where it differs from ISO-8859-1; 0 where it has no character. A file
    /// keeps those five bytes' ISO-8859-1 meaning, a C1 control (as the WHATWG Encoding Standard does),
    /// which HTMLText drops; HTMLText reads `&#128;`–`&#159;` with the same table.
    static let windows1252Range80to9F: [UInt32] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
        0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
        0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]
}
