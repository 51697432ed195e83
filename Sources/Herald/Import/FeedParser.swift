import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Reads a syndication feed (Atom, RSS 2.0 or JSON Feed) into articles ready to import.
///
/// All or nothing: a feed that is malformed anywhere throws, so an import never stores half a feed
/// or an entry with invented data (a missing date is an error, not "now").
public enum FeedParser {
    /// Limits that keep one hostile or broken feed from exhausting memory or flooding the site.
    static let maximumInputBytes = 32 * 1024 * 1024
    static let maximumEntries = 10_000
    static let maximumTitleCharacters = 500
    static let maximumBodyCharacters = 200_000

    /// The format is decided by content, never by file name or Content-Type, which feeds get wrong.
    public static func parse(_ data: [UInt8], name: String) throws(FeedError) -> [IncomingArticle] {
        do throws(FeedIssue) {
            return try parseDetectingFormat(data)
        } catch {
            throw FeedError(name: name, reason: error.reason)
        }
    }

    private static func parseDetectingFormat(_ data: [UInt8]) throws(FeedIssue) -> [IncomingArticle] {
        guard data.count <= maximumInputBytes else {
            throw FeedIssue("the file is \(data.count) bytes; the limit is 32 MiB")
        }
        switch firstSignificantByte(of: data) {
        case UInt8(ascii: "{"):
            return try JSONFeedParser.parse(data)
        case UInt8(ascii: "<"):
            return try XMLFeedReader.read(data) { namespace, name throws(FeedIssue) -> any XMLFeedHandler in
                if name == "feed" && namespace == AtomParser.namespace { return AtomParser() }
                if name == "rss" && namespace.isEmpty { return RSSParser() }
                throw FeedIssue.unknownFormat("the root element is <\(name)>")
            }
        case nil:
            throw FeedIssue("the file is empty")
        default:
            throw FeedIssue.unknownFormat("the file is neither XML nor a JSON object")
        }
    }

    /// The first byte after an optional UTF-8 byte-order mark and whitespace.
    private static func firstSignificantByte(of data: [UInt8]) -> UInt8? {
        let start = data.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        return data[start...].first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    }
}

/// Why a feed file was refused. `description` reads "<name>: <reason>", ready for a log or the CLI.
public struct FeedError: Error, CustomStringConvertible, Equatable {
    /// The name the caller gave the input, usually its path.
    public var name: String
    public var reason: String

    public init(name: String, reason: String) {
        self.name = name
        self.reason = reason
    }

    public var description: String { "\(name): \(reason)" }
}

/// A `FeedError` before it knows the file name: the format parsers only describe the problem,
/// and `FeedParser.parse` adds the name once.
struct FeedIssue: Error {
    var reason: String

    init(_ reason: String) {
        self.reason = reason
    }

    static func unknownFormat(_ detail: String) -> FeedIssue {
        FeedIssue("unknown feed format (expected Atom, RSS 2.0 or JSON Feed): \(detail)")
    }

    static let tooManyEntries = FeedIssue("the feed has more than \(FeedParser.maximumEntries) entries")
}

// MARK: - Entries

/// One entry as a format parser found it, text already converted to plain text; `article` applies the
/// rules every format shares, so Atom, RSS and JSON Feed cannot drift apart on them.
struct FeedEntryFields {
    /// How errors name the entry before its id is known: "item 3", "entry 2 at line 40".
    var position: String
    var sourceID = ""
    var title = ""
    var summary = ""
    var body = ""
    var author = ""
    var section = ""
    /// The date as written; parsed by `article` with the format's own parser.
    var date: String?

    /// Summaries are teasers; a feed that puts a whole article in one is cut like a missing one.
    static let maximumSummaryCharacters = 500
    static let excerptCharacters = 200

    /// - Parameters:
    ///   - idNames: what the format calls its identity, for "has no …" ("guid or link").
    ///   - dateNames: the same for dates ("pubDate or dc:date").
    func article(idNames: String, dateNames: String, parseDate: (String) -> Int?) throws(FeedIssue)
        -> IncomingArticle
    {
        let id = sourceID.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !id.isEmpty else { throw FeedIssue("\(position) has no \(idNames)") }
        let name = "\(position) (\"\(Self.shortened(id))\")"

        guard !title.isEmpty else { throw FeedIssue("\(name) has no title") }
        let titleLength = title.count
        guard titleLength <= FeedParser.maximumTitleCharacters else {
            throw FeedIssue(
                "\(name) has a title of \(titleLength) characters; the limit is \(FeedParser.maximumTitleCharacters)")
        }
        // Checked on the body as stored, which for an entry without content is its summary.
        let fullBody = body.isEmpty ? HTMLText.singleLine(summary) : body
        let bodyLength = fullBody.count
        guard bodyLength <= FeedParser.maximumBodyCharacters else {
            throw FeedIssue(
                "\(name) has a body of \(bodyLength) characters; the limit is \(FeedParser.maximumBodyCharacters)")
        }
        guard let written = date?.trimmingCharacters(in: .whitespacesAndNewlines), !written.isEmpty else {
            throw FeedIssue("\(name) has no date (\(dateNames))")
        }
        guard let publishedAt = parseDate(written) else {
            throw FeedIssue("\(name) has an unparseable date \"\(Self.shortened(written))\"")
        }

        let cutSummary =
            summary.isEmpty
            ? Self.excerpt(of: body, limit: Self.excerptCharacters)
            : Self.excerpt(of: summary, limit: Self.maximumSummaryCharacters)
        return IncomingArticle(
            sourceID: id, title: title, summary: cutSummary, body: fullBody, author: author, section: section,
            publishedAt: publishedAt)
    }

    /// The text on one line, and if longer than `limit` characters, cut at the last word boundary
    /// before it with "…", so teasers never end mid-word.
    static func excerpt(of text: String, limit: Int) -> String {
        let line = HTMLText.singleLine(text)
        guard line.count > limit else { return line }
        let prefix = line.prefix(limit)
        // Prefer a word boundary, but not one so early that the excerpt is mostly lost.
        let cut = prefix.lastIndex(of: " ").flatMap {
            prefix.distance(from: prefix.startIndex, to: $0) >= limit / 2 ? $0 : nil
        }
        var kept = prefix[..<(cut ?? prefix.endIndex)]
        while let last = kept.last, last.isWhitespace || ",;:-–—".contains(last) { kept = kept.dropLast() }
        return String(kept) + "…"
    }

    /// Categories and tags name sections: one lowercase line.
    static func section(from category: String) -> String {
        HTMLText.singleLine(category).lowercased()
    }

    /// Long ids and dates are cut in messages; the reader needs to recognize them, not read them whole.
    static func shortened(_ text: String) -> String {
        let line = HTMLText.singleLine(text)
        return line.count > 80 ? String(line.prefix(79)) + "…" : line
    }
}

// MARK: - Dates

/// Feed dates to Unix seconds, by hand rather than with DateFormatter: exact about what is accepted,
/// independent of locale and time zone data, and cheap for 10,000 entries.
enum FeedDate {
    /// RFC 3339 (Atom, JSON Feed): `2024-03-01T12:30:00Z`, fractions and offsets allowed. The offset is
    /// required: without it the instant is unknown, and guessing would silently shift the date.
    /// Accepted leniently: lowercase `t`/`z`, a space for `T`, missing seconds, `+0100` without colon.
    static func rfc3339(_ text: String) -> Int? {
        var reader = FeedDateScanner(text.trimmingCharacters(in: .whitespacesAndNewlines))
        guard let year = reader.number(digits: 4), reader.skip("-"),
            let month = reader.number(digits: 2), reader.skip("-"),
            let day = reader.number(digits: 2), reader.skip(anyOf: "Tt "),
            let hour = reader.number(digits: 2), reader.skip(":"),
            let minute = reader.number(digits: 2)
        else { return nil }
        var second = 0
        if reader.skip(":") {
            guard let value = reader.number(digits: 2) else { return nil }
            second = value
            // Fractions are allowed but Herald stores whole seconds.
            if reader.skip(".") || reader.skip(",") {
                guard reader.skipDigits() > 0 else { return nil }
            }
        }
        guard let offset = reader.zoneOffset(), reader.isAtEnd else { return nil }
        return unixTime(
            year: year, month: month, day: day, hour: hour, minute: minute, second: second, offsetSeconds: offset)
    }

    /// Seconds since 1970 for a validated civil date and time at a UTC offset; nil for impossible ones
    /// (month 13, 31 April, 25:00). Leap second 60 is accepted and lands on the next minute.
    static func unixTime(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int, offsetSeconds: Int)
        -> Int?
    {
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        return daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3_600 + minute * 60 + second
            - offsetSeconds
    }

    private static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
    private static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * ((month + 9) % 12) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }
}

/// A cursor over the ASCII of a date string.
struct FeedDateScanner {
    private let bytes: [UInt8]
    private var position = 0

    init(_ text: String) {
        bytes = Array(text.utf8)
    }

    var isAtEnd: Bool { position == bytes.count }

    /// Exactly `digits` decimal digits.
    mutating func number(digits: Int) -> Int? {
        guard position + digits <= bytes.count else { return nil }
        var value = 0
        for byte in bytes[position..<(position + digits)] {
            guard (0x30...0x39).contains(byte) else { return nil }
            value = value * 10 + Int(byte - 0x30)
        }
        position += digits
        return value
    }

    mutating func skipDigits() -> Int {
        let start = position
        while position < bytes.count, (0x30...0x39).contains(bytes[position]) { position += 1 }
        return position - start
    }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        skip(anyOf: String(character))
    }

    mutating func skip(anyOf characters: String) -> Bool {
        guard position < bytes.count, characters.utf8.contains(bytes[position]) else { return false }
        position += 1
        return true
    }

    /// `Z` or `±HH:MM` / `±HHMM` as seconds east of UTC.
    mutating func zoneOffset() -> Int? {
        if skip(anyOf: "Zz") { return 0 }
        guard position < bytes.count else { return nil }
        let sign: Int
        switch bytes[position] {
        case UInt8(ascii: "+"): sign = 1
        case UInt8(ascii: "-"): sign = -1
        default: return nil
        }
        position += 1
        guard let hours = number(digits: 2) else { return nil }
        _ = skip(":")
        guard let minutes = number(digits: 2), hours <= 23, minutes <= 59 else { return nil }
        return sign * (hours * 3_600 + minutes * 60)
    }
}

// MARK: - XML

/// What Atom and RSS plug into `XMLFeedReader`: they receive the feed one record at a time.
protocol XMLFeedHandler: AnyObject {
    /// The depth of the elements handed to `handle`: 1 for children of the root (Atom's `feed/entry`),
    /// 2 for grandchildren (RSS's `rss/channel/item`).
    var recordDepth: Int { get }
    /// Called with each complete element at `recordDepth`; `parent` is the local name of its parent.
    func handle(_ element: FeedXMLElement, parent: String) throws(FeedIssue)
    /// Called once after the whole document parsed cleanly.
    func finish() throws(FeedIssue) -> [IncomingArticle]
}

/// One XML element with everything inside it. Namespaces are resolved: `name` is the local name.
struct FeedXMLElement {
    enum Child {
        case element(FeedXMLElement)
        case text(String)
    }

    var namespace: String
    var name: String
    var attributes: [String: String]
    /// Where the element starts, for error messages.
    var line: Int
    var children: [Child] = []

    func first(_ name: String, in namespace: String) -> FeedXMLElement? {
        for case .element(let element) in children where element.name == name && element.namespace == namespace {
            return element
        }
        return nil
    }

    func all(_ name: String, in namespace: String) -> [FeedXMLElement] {
        children.compactMap { child in
            guard case .element(let element) = child, element.name == name, element.namespace == namespace
            else { return nil }
            return element
        }
    }

    /// All text inside, markup removed (entities and CDATA are already decoded by the XML parser).
    var text: String {
        var output = ""
        appendText(to: &output)
        return output
    }

    private func appendText(to output: inout String) {
        for child in children {
            switch child {
            case .text(let text): output += text
            case .element(let element): element.appendText(to: &output)
            }
        }
    }

    /// The content re-serialized as HTML, for inline XHTML (Atom `type="xhtml"`), so it goes through
    /// the same conversion as escaped HTML. Attributes are left out: the conversion ignores them anyway.
    var innerHTML: String {
        var output = ""
        appendInnerHTML(to: &output)
        return output
    }

    private func appendInnerHTML(to output: inout String) {
        for child in children {
            switch child {
            case .text(let text):
                for character in text {
                    switch character {
                    case "&": output += "&amp;"
                    case "<": output += "&lt;"
                    case ">": output += "&gt;"
                    default: output.append(character)
                    }
                }
            case .element(let element):
                output += "<\(element.name)>"
                element.appendInnerHTML(to: &output)
                output += "</\(element.name)>"
            }
        }
    }
}

/// Streams an XML feed through FoundationXML's `XMLParser`, keeping only the record being read in
/// memory (one entry, not the whole document tree), and stops at the first error.
///
/// Two properties of the Linux `XMLParser` shape this class: it runs libxml2 in recovery mode, so it
/// keeps reporting events after an error and may even return `true` from `parse()` for a truncated
/// document; hence any reported error is fatal here. And its errors carry only libxml2's code, no text;
/// hence `XMLErrorText`.
final class XMLFeedReader: NSObject, XMLParserDelegate {
    typealias HandlerChoice = (_ namespace: String, _ name: String) throws(FeedIssue) -> any XMLFeedHandler

    private let choose: HandlerChoice
    private var handler: (any XMLFeedHandler)?
    /// Local names of the open elements above the record depth (root, channel).
    private var path: [String] = []
    /// The record being read and its open descendants, innermost last.
    private var open: [FeedXMLElement] = []
    /// Text read since the last tag, for the innermost open element (see `appendText`).
    private var pendingText = ""
    private var failure: FeedIssue?

    private init(choose: @escaping HandlerChoice) {
        self.choose = choose
    }

    static func read(_ data: [UInt8], choosing choose: @escaping HandlerChoice) throws(FeedIssue)
        -> [IncomingArticle]
    {
        // Entity declarations have no use in a feed and are how XXE and "billion laughs" attacks work.
        // libxml2 is also configured not to load external entities; refusing them up front is the belt
        // to those braces, and gives a clear message instead of text that silently goes missing.
        if declaresEntities(data) {
            throw FeedIssue("the XML declares entities (<!ENTITY …>), which feeds must not use")
        }
        // libxml2 (through Foundation) crashes switching to some declared encodings, UTF-7 among
        // them (found by scripts/fuzz.sh). Feeds are UTF-8 in practice; accept what it handles natively.
        if let encoding = declaredEncoding(data), !supportedEncodings.contains(encoding.lowercased()) {
            throw FeedIssue("the XML declares the encoding “\(encoding.prefix(40))”; feeds must be UTF-8")
        }
        let reader = XMLFeedReader(choose: choose)
        // A stream, not `XMLParser(data:)`: given all the data at once, libxml2 sees more than its 10 MB
        // lookahead limit and fails on any document over 10 MB; a stream is fed to it in small chunks.
        let parser = XMLParser(stream: InputStream(data: Data(data)))
        parser.shouldProcessNamespaces = true
        parser.shouldReportNamespacePrefixes = false
        parser.shouldResolveExternalEntities = false
        parser.externalEntityResolvingPolicy = .never
        parser.delegate = reader
        let succeeded = parser.parse()

        if let failure = reader.failure { throw failure }
        if !succeeded, let error = parser.parserError as NSError?, !XMLErrorText.isIgnorable(error.code) {
            throw FeedIssue("not well-formed XML: \(XMLErrorText.describe(error.code))")
        }
        guard let handler = reader.handler else { throw FeedIssue("not well-formed XML: no root element") }
        return try handler.finish()
    }

    private static let supportedEncodings: Set<String> = ["utf-8", "utf8", "us-ascii", "ascii", "iso-8859-1", "latin1"]

    /// The `encoding` of the XML declaration (`<?xml version="1.0" encoding="…"?>`), if there is one.
    private static func declaredEncoding(_ bytes: [UInt8]) -> String? {
        var start = 0
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { start = 3 }
        guard bytes[start...].starts(with: "<?xml".utf8),
            let end = bytes[start...].firstRange(of: Array("?>".utf8))
        else { return nil }
        let declaration = String(decoding: bytes[start..<end.lowerBound], as: UTF8.self)
        guard let key = declaration.range(of: "encoding") else { return nil }
        let rest = declaration[key.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return "" }
        return String(rest.dropFirst().prefix { $0 != quote })
    }

    /// Whether `<!ENTITY` appears before the root element, that is in the DTD. Comments, processing
    /// instructions and quoted literals are skipped, so none of them can hide a declaration.
    private static func declaresEntities(_ bytes: [UInt8]) -> Bool {
        var position = 0
        func skip(past terminator: String) -> Bool {
            guard let range = bytes[position...].firstRange(of: Array(terminator.utf8)) else { return false }
            position = range.upperBound
            return true
        }
        while position < bytes.count {
            let rest = bytes[position...]
            let next = position + 1 < bytes.count ? bytes[position + 1] : 0
            if rest.starts(with: "<!--".utf8) {
                guard skip(past: "-->") else { return false }
            } else if rest.starts(with: "<?".utf8) {
                guard skip(past: "?>") else { return false }
            } else if rest.starts(with: "<!ENTITY".utf8) {
                return true
            } else if bytes[position] == UInt8(ascii: "\"") || bytes[position] == UInt8(ascii: "'") {
                let quote = String(UnicodeScalar(bytes[position]))
                position += 1
                guard skip(past: quote) else { return false }
            } else if bytes[position] == UInt8(ascii: "<") && isNameStart(next) {
                return false  // the root element: the DTD, if any, is behind us
            } else {
                position += 1
            }
        }
        return false
    }

    private static func isNameStart(_ byte: UInt8) -> Bool {
        (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    private func fail(_ issue: FeedIssue, _ parser: XMLParser) {
        if failure == nil { failure = issue }
        parser.abortParsing()
    }

    func parser(
        _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
        qualifiedName qName: String?, attributes attributeDict: [String: String]
    ) {
        guard failure == nil else { return }
        flushText()
        let namespace = namespaceURI ?? ""
        guard let handler else {
            do throws(FeedIssue) {
                handler = try choose(namespace, elementName)
                path.append(elementName)
            } catch {
                fail(error, parser)
            }
            return
        }
        if open.isEmpty && path.count < handler.recordDepth {
            path.append(elementName)
        } else {
            open.append(
                FeedXMLElement(
                    namespace: namespace, name: elementName, attributes: attributeDict, line: parser.lineNumber))
        }
    }

    func parser(
        _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?
    ) {
        guard failure == nil else { return }
        flushText()
        guard let element = open.popLast() else {
            _ = path.popLast()
            return
        }
        if open.isEmpty {
            do throws(FeedIssue) {
                try handler?.handle(element, parent: path.last ?? "")
            } catch {
                fail(error, parser)
            }
        } else {
            open[open.count - 1].children.append(.element(element))
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        appendText(string)
    }

    func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) {
        appendText(String(decoding: CDATABlock, as: UTF8.self))
    }

    /// The parser delivers text in pieces (around every entity, at buffer edges). They are gathered here
    /// and stored as one node when the next element starts or ends: appending to the node itself would
    /// copy the text so far each time, quadratic for a long text full of `&amp;`.
    /// Text outside a record (between entries, channel metadata) is not needed and not kept.
    private func appendText(_ text: String) {
        guard failure == nil, !open.isEmpty else { return }
        pendingText += text
    }

    private func flushText() {
        guard !pendingText.isEmpty else { return }
        if !open.isEmpty { open[open.count - 1].children.append(.text(pendingText)) }
        pendingText = ""
    }

    func parser(_ parser: XMLParser, parseErrorOccurred parseError: Error) {
        let code = (parseError as NSError).code
        guard !XMLErrorText.isIgnorable(code) else { return }
        fail(FeedIssue("not well-formed XML at line \(parser.lineNumber): \(XMLErrorText.describe(code))"), parser)
    }
}

/// Words for libxml2's error codes (xmlerror.h), which are all the Linux `XMLParser` reports.
enum XMLErrorText {
    /// Warnings, and namespace errors such as an undeclared prefix (`<media:content>` without its
    /// xmlns): the document is still well-formed XML and the elements we read are unaffected.
    static func isIgnorable(_ code: Int) -> Bool {
        [27, 93, 97, 98, 99, 100, 102, 106, 107].contains(code) || (200..<300).contains(code)
    }

    static func describe(_ code: Int) -> String {
        switch code {
        case 1: return "the parser gave up (elements nested over 256 deep, or one text over 10 MB?)"
        case 2: return "out of memory"
        case 3, 4: return "the document is empty or does not start with an element"
        case 5: return "the document ends too early (truncated?) or has content after the root element"
        case 6, 7, 8: return "invalid character reference"
        case 9: return "invalid character (XML does not allow it, even as &#…;)"
        case 23: return "an entity reference is missing its ';'"
        case 26: return "undeclared entity (HTML entities such as &nbsp; are not XML; use &#160;)"
        case 31, 32, 81: return "unsupported or inconsistent character encoding"
        case 38: return "'<' is not allowed in an attribute value"
        case 39, 40, 41: return "malformed attribute"
        case 42: return "an attribute appears twice"
        case 45: return "a comment is not closed"
        case 63: return "a CDATA section is not closed"
        case 64: return "an XML declaration or processing instruction named 'xml' in the wrong place"
        case 68: return "an element or attribute name is expected"
        case 73: return "'>' is expected"
        case 76: return "an end tag does not match its start tag"
        case 77: return "the document ends inside an element (truncated?)"
        case 85: return "the content is not well balanced"
        case 86: return "extra content at the end of the document"
        case 89: return "entity references loop"
        case 111: return "parsing stopped"
        default: return "XML error \(code)"
        }
    }
}
