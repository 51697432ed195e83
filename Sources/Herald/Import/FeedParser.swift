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
        // Every check and parser below reads this UTF-8 text, never the bytes as they came (issue #14).
        let text = try FeedEncoding.utf8Text(of: data)
        switch firstSignificantByte(of: text) {
        case UInt8(ascii: "{"):
            return try JSONFeedParser.parse(text)
        case UInt8(ascii: "<"):
            return try XMLFeedReader.read(text) { namespace, name throws(FeedIssue) -> any XMLFeedHandler in
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

    /// The first byte after whitespace (`FeedEncoding` has removed any byte-order mark).
    private static func firstSignificantByte(of text: [UInt8]) -> UInt8? {
        text.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
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
