import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

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

    /// `data` is `FeedEncoding.utf8Text`'s output: UTF-8 whose declaration, if any, names UTF-8. So the
    /// entity scan below reads the same characters libxml2 will, and libxml2 has no encoding to switch
    /// to (it crashed switching to UTF-7, found by scripts/fuzz.sh and again by issue #14).
    static func read(_ data: [UInt8], choosing choose: @escaping HandlerChoice) throws(FeedIssue)
        -> [IncomingArticle]
    {
        // Entity declarations have no use in a feed and are how XXE and "billion laughs" attacks work.
        // libxml2 is also configured not to load external entities; refusing them up front is the belt
        // to those braces, and gives a clear message instead of text that silently goes missing.
        if declaresEntities(data) {
            throw FeedIssue("the XML declares entities (<!ENTITY …>), which feeds must not use")
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
