/// What libcmark-gfm 0.29.0.gfm.6 (Debian 12's) would spend on a text, bounded from above before
/// it parses anything. cmark is linear by design, but this version has two super-linear paths that
/// later upstream releases fixed, and at 100,000 characters each costs seconds to minutes:
///
/// - **Table rows.** A row's cells go into a linked list appended at its end, and short rows are
///   padded to the header's width, so a table costs about the sum over its rows of
///   max(cells, columns)². One header of 500 columns followed by 47,000 one-letter rows took 24 s
///   and rendered 240 MB; one row of 100,000 pipes took 24 s.
/// - **Image openers.** Every link closed after an unclosed `![` walks back over all of them, so a
///   paragraph costs about (`![` count) × (`]` count): `![![[]()` repeated took 10 s.
///
/// Both bounds are counted on lines (a line ends at LF, CR or CRLF, as in cmark) and on blocks of
/// non-blank lines (a blank line holds only spaces and tabs; it ends every paragraph and table).
/// Over the table budget, the text is rendered without the table extension; over the bracket
/// budget, it is not parsed at all. Real articles are orders of magnitude below either.
struct MarkdownBudget {
    /// In units of about 2.5 ns of cmark's time: some 5 ms. It also bounds what padding adds to the
    /// page: 100 columns may get 190 rows, 5 columns 27,000 rows (1.7 MB of mostly empty cells, in
    /// 0.2 s). A real 20-column table may have 2,000 rows, more than 100,000 characters can hold.
    static let tableCost = 2_000_000
    /// In units of about 10 ns: some 10 ms. A paragraph may hold 100 images and 10,000 links.
    static let bracketCost = 1_000_000

    let tableCost: Int
    let bracketCost: Int

    var tablesFit: Bool { tableCost <= Self.tableCost }
    var bracketsFit: Bool { bracketCost <= Self.bracketCost }

    init(_ text: String) {
        var lines: [Line] = []
        var line = Line()
        var previous: UInt8 = 0
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\n") where previous == UInt8(ascii: "\r"):
                break  // the LF of a CRLF: the line already ended at the CR
            case UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                lines.append(line)
                line = Line()
            default:
                line.add(byte, after: previous)
            }
            previous = byte
        }
        lines.append(line)

        var tableCost = 0
        var bracketCost = 0
        // Walking backwards: how many lines follow before a blank one, and the brackets of the
        // block of non-blank lines seen so far.
        var linesBeforeBlank = 0
        var imageOpeners = 0
        var closers = 0
        for line in lines.reversed() {
            let cells = line.pipes + 1
            tableCost = Self.sum(tableCost, Self.product(cells, cells))
            if line.isBlank {
                bracketCost = Self.sum(bracketCost, Self.product(imageOpeners, closers))
                imageOpeners = 0
                closers = 0
                linesBeforeBlank = 0
                continue
            }
            if line.couldBeDelimiterRow {
                // Every line up to the next blank one may become a row padded to this width.
                tableCost = Self.sum(tableCost, Self.product(cells, cells, linesBeforeBlank))
            }
            imageOpeners += line.imageOpeners
            closers += line.closers
            linesBeforeBlank += 1
        }
        bracketCost = Self.sum(bracketCost, Self.product(imageOpeners, closers))
        self.tableCost = tableCost
        self.bracketCost = bracketCost
    }

    /// Saturating arithmetic: a text of any length gives a cost, never an overflow.
    private static func product(_ factors: Int...) -> Int {
        var result = 1
        for factor in factors {
            let (value, overflow) = result.multipliedReportingOverflow(by: factor)
            if overflow { return Int.max }
            result = value
        }
        return result
    }

    private static func sum(_ a: Int, _ b: Int) -> Int {
        let (value, overflow) = a.addingReportingOverflow(b)
        return overflow ? Int.max : value
    }

    /// What one line holds that matters here.
    private struct Line {
        var pipes = 0
        var imageOpeners = 0
        var closers = 0
        var isBlank = true
        /// Only `|`, `:`, `-`, spaces and tabs after any block-quote markers and indentation, with
        /// at least one `-`: the shape of a table's delimiter row.
        var couldBeDelimiterRow = false
        private var inPrefix = true
        private var hasOther = false

        mutating func add(_ byte: UInt8, after previous: UInt8) {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                return
            case UInt8(ascii: ">") where inPrefix:
                isBlank = false
                return
            case UInt8(ascii: "|"):
                pipes += 1
            case UInt8(ascii: "-"):
                if !hasOther { couldBeDelimiterRow = true }
            case UInt8(ascii: ":"):
                break
            case UInt8(ascii: "["):
                if previous == UInt8(ascii: "!") { imageOpeners += 1 }
                hasOther = true
            case UInt8(ascii: "]"):
                closers += 1
                hasOther = true
            default:
                hasOther = true
            }
            isBlank = false
            inPrefix = false
            if hasOther { couldBeDelimiterRow = false }
        }
    }
}
