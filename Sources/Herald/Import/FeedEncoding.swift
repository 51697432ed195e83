/// How a feed's bytes are encoded, decided once, before anything reads them.
///
/// Why once and first: the guards in front of libxml2 (no `<!ENTITY`, a known encoding) used to scan
/// the raw bytes as ASCII while libxml2 made its own guess. UTF-16 without a byte-order mark reads as
/// "<", NUL, "?", NUL… to a byte scan, so the guards saw nothing, and libxml2 then decoded it as UTF-16
/// and followed its `encoding="UTF-7"` into a crash, or expanded an entity the guard never saw (issue
/// #14). Now this decision is the only one: `FeedEncoding.utf8Text` transcodes with it, every check
/// runs on the UTF-8 result, and libxml2 and JSONSerialization only ever see UTF-8 that says so.
enum FeedEncoding: Equatable {
    case utf8
    case utf16(bigEndian: Bool)
    case isoLatin1
    case windows1252

    /// The order of XML 1.0 Appendix F: a byte-order mark, else the byte pattern of the first
    /// characters, else the XML declaration's `encoding`, else UTF-8. `bytesToSkip` is the mark's length.
    /// Anything Herald does not read (UTF-32, EBCDIC, UTF-7, Shift_JIS…) is refused here, by name.
    static func decide(_ bytes: [UInt8]) throws(FeedIssue) -> (encoding: FeedEncoding, bytesToSkip: Int) {
        let head = Array(bytes.prefix(4)) + [UInt8](repeating: 0xAA, count: max(0, 4 - bytes.count))
        switch (head[0], head[1], head[2], head[3]) {
        // Byte-order marks. UTF-32LE's mark starts like UTF-16LE's, so it is matched first.
        case (0x00, 0x00, 0xFE, 0xFF), (0xFF, 0xFE, 0x00, 0x00): throw unsupported("UTF-32")
        case (0xEF, 0xBB, 0xBF, _): return (.utf8, 3)
        case (0xFE, 0xFF, _, _): return (.utf16(bigEndian: true), 2)
        case (0xFF, 0xFE, _, _): return (.utf16(bigEndian: false), 2)
        // No mark: an ASCII character ("<" or "{", or the whitespace before them) in a wider encoding.
        // Appendix F names "<?" only; any two such characters are as telling, and no UTF-8 text has NULs.
        case (0x00, 0x00, 0x00, let c) where c != 0, (let c, 0x00, 0x00, 0x00) where c != 0,
            (0x00, 0x00, let c, 0x00) where c != 0, (0x00, let c, 0x00, 0x00) where c != 0:
            throw unsupported("UTF-32")
        case (0x00, let a, 0x00, let b) where a != 0 && b != 0: return (.utf16(bigEndian: true), 0)
        case (let a, 0x00, let b, 0x00) where a != 0 && b != 0: return (.utf16(bigEndian: false), 0)
        case (0x4C, 0x6F, 0xA7, 0x94): throw unsupported("EBCDIC")
        default: break
        }
        // An ASCII-compatible encoding: the declaration, if any, can be read as it is.
        switch try XMLDeclaration.encodingName(in: bytes[...]).map(named) {
        case nil, .utf8?: return (.utf8, 0)
        case .isoLatin1?: return (.isoLatin1, 0)
        case .windows1252?: return (.windows1252, 0)
        case .utf16?:
            throw FeedIssue(
                "the XML declares UTF-16, but the file has neither its byte-order mark nor its byte pattern")
        }
    }

    /// A name in `encoding="…"` as far as Herald is concerned. UTF-16 names no byte order: the mark or
    /// the byte pattern gave it already.
    enum Name {
        case utf8, utf16, isoLatin1, windows1252
    }

    /// Names are case-insensitive (XML 1.0 §4.3.3); these are the IANA names and aliases feeds use.
    /// US-ASCII is read as UTF-8, of which it is a subset.
    static func named(_ name: String) throws(FeedIssue) -> Name {
        switch name.lowercased() {
        case "utf-8", "utf8", "us-ascii", "ascii": return .utf8
        case "utf-16", "utf-16le", "utf-16be", "utf16": return .utf16
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "latin1", "latin-1", "l1": return .isoLatin1
        case "windows-1252", "cp1252", "x-cp1252": return .windows1252
        default: throw unsupported("“\(name.prefix(40))”")
        }
    }

    /// For messages.
    var name: String {
        switch self {
        case .utf8: return "UTF-8"
        case .utf16(let bigEndian): return bigEndian ? "UTF-16BE" : "UTF-16LE"
        case .isoLatin1: return "ISO-8859-1"
        case .windows1252: return "Windows-1252"
        }
    }

    private static func unsupported(_ encoding: String) -> FeedIssue {
        FeedIssue("the encoding \(encoding) is not supported (feeds must be UTF-8, UTF-16, ISO-8859-1 or Windows-1252)")
    }
}
