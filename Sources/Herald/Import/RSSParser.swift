import Foundation

/// RSS 2.0: `rss/channel/item` records, read one at a time by `XMLFeedReader`. Core RSS elements have
/// no namespace; extensions are matched by namespace, not prefix, since feeds pick their own prefixes.
final class RSSParser: XMLFeedHandler {
    static let contentNamespace = "http://purl.org/rss/1.0/modules/content/"
    static let dublinCoreNamespace = "http://purl.org/dc/elements/1.1/"

    let recordDepth = 2
    private var articles: [IncomingArticle] = []
    /// `channel/language`: what every item without its own `dc:language` is written in.
    private var channelLanguage: String?

    func handle(_ element: FeedXMLElement, parent: String) throws(FeedIssue) {
        if parent == "channel", element.name == "language", element.namespace.isEmpty {
            channelLanguage = LanguageTag.validated(element.text)
            return
        }
        guard parent == "channel", element.name == "item", element.namespace.isEmpty else { return }
        guard articles.count < FeedParser.maximumEntries else { throw FeedIssue.tooManyEntries }
        articles.append(try Self.article(from: element, number: articles.count + 1))
    }

    func finish() throws(FeedIssue) -> [IncomingArticle] {
        // The channel's language may come after its items.
        articles.map { article in
            var article = article
            if article.language == nil { article.language = channelLanguage }
            return article
        }
    }

    private static func article(from item: FeedXMLElement, number: Int) throws(FeedIssue) -> IncomingArticle {
        var fields = FeedEntryFields(position: "item \(number) at line \(item.line)")
        fields.sourceID =
            [core("guid", of: item), core("link", of: item)]
            .lazy.compactMap { $0?.text.trimmingCharacters(in: .whitespacesAndNewlines) }
            .first { !$0.isEmpty } ?? ""
        fields.link = core("link", of: item)?.text ?? ""
        // RSS titles are meant to be plain text, but many feeds escape them as HTML ("AT&amp;amp;T"):
        // decoding references (and nothing else) reads both kinds right.
        fields.title = core("title", of: item).map { HTMLText.singleLine(HTMLText.decodeEntities($0.text)) } ?? ""
        let description = core("description", of: item).map { HTMLText.plainParagraphs(fromHTML: $0.text) } ?? ""
        let encoded = item.first("encoded", in: contentNamespace).map { HTMLText.plainParagraphs(fromHTML: $0.text) }
        if let encoded, !encoded.isEmpty {
            fields.body = encoded
            fields.summary = HTMLText.singleLine(description)
        } else {
            // Without content:encoded the description is the whole article more often than a teaser:
            // it becomes the body, and the summary is cut from it.
            fields.body = description
        }
        fields.author =
            authorName(core("author", of: item)?.text)
            ?? item.first("creator", in: dublinCoreNamespace).map { HTMLText.singleLine($0.text) } ?? ""
        fields.section = core("category", of: item).map { FeedEntryFields.section(from: $0.text) } ?? ""
        fields.date = (core("pubDate", of: item) ?? item.first("date", in: dublinCoreNamespace))?.text
        fields.language = item.first("language", in: dublinCoreNamespace)?.text
        // dc:date is ISO 8601, and some feeds write pubDate that way too.
        return try fields.article(idNames: "guid or link", dateNames: "pubDate or dc:date") {
            FeedDate.rfc822($0) ?? FeedDate.rfc3339($0)
        }
    }

    private static func core(_ name: String, of item: FeedXMLElement) -> FeedXMLElement? {
        item.first(name, in: "")
    }

    /// RSS `author` is an e-mail address, conventionally "jo@example.com (Jo Bloggs)": the name is the part
    /// worth showing. A bare address yields nil so that dc:creator, usually a real name, is used instead.
    private static func authorName(_ text: String?) -> String? {
        guard let line = text.map(HTMLText.singleLine), !line.isEmpty else { return nil }
        if let open = line.firstIndex(of: "("), let close = line.lastIndex(of: ")"), open < close {
            let name = HTMLText.singleLine(String(line[line.index(after: open)..<close]))
            if !name.isEmpty { return name }
        }
        let isBareAddress = line.contains("@") && !line.contains(" ")
        return isBareAddress ? nil : line
    }
}

extension FeedDate {
    /// RFC 822 / RFC 2822 dates as RSS uses them: `Sat, 07 Sep 2002 09:42:31 GMT`. The weekday is optional
    /// (and not checked: feeds get it wrong more often than the date), as are seconds; month names may be
    /// spelled out; the zone is required and may be numeric (`+0200`, `-05:00`), UT/GMT/UTC/Z, a US zone
    /// (EST, PDT, …) or a military letter (treated as UTC, as RFC 2822 advises).
    static func rfc822(_ text: String) -> Int? {
        // A trailing comment, "-0800 (PST)", only repeats the zone.
        let withoutComment = text.split(separator: "(", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
        var tokens = withoutComment.split { $0 == " " || $0 == "\t" || $0 == "," }.map(String.init)
        if let first = tokens.first, first.allSatisfy(\.isLetter) { tokens.removeFirst() }  // weekday
        guard tokens.count == 5,
            let day = Int(tokens[0]), tokens[0].count <= 2,
            let month = monthNumber(tokens[1]),
            let year = fullYear(tokens[2]),
            let time = timeOfDay(tokens[3]),
            let offset = zoneOffset(tokens[4])
        else { return nil }
        return unixTime(
            year: year, month: month, day: day, hour: time.hour, minute: time.minute, second: time.second,
            offsetSeconds: offset)
    }

    private static let monthNames = [
        "jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec",
    ]
    private static let fullMonthNames = [
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
        "november", "december",
    ]

    private static func monthNumber(_ token: String) -> Int? {
        let name = token.lowercased()
        if let index = monthNames.firstIndex(of: name) ?? fullMonthNames.firstIndex(of: name) { return index + 1 }
        return name == "sept" ? 9 : nil
    }

    /// Four digits as written; RFC 822's two-digit years by RFC 2822's rule (00–49 → 20xx, 50–99 → 19xx).
    private static func fullYear(_ token: String) -> Int? {
        guard token.allSatisfy(\.isASCII), let value = Int(token), value >= 0 else { return nil }
        switch token.count {
        case 4: return value
        case 3: return value + 1900
        case 2: return value < 50 ? 2000 + value : 1900 + value
        default: return nil
        }
    }

    private static func timeOfDay(_ token: String) -> (hour: Int, minute: Int, second: Int)? {
        let parts = token.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3,
            parts.allSatisfy({ (1...2).contains($0.count) && $0.allSatisfy(\.isASCII) }),
            let hour = Int(parts[0]), let minute = Int(parts[1])
        else { return nil }
        let second = parts.count == 3 ? Int(parts[2]) : 0
        return second.map { (hour, minute, $0) }
    }

    /// Named zones RFC 822 defines, in seconds east of UTC.
    private static let namedZones: [String: Int] = [
        "UT": 0, "UTC": 0, "GMT": 0, "Z": 0,
        "EST": -5 * 3600, "EDT": -4 * 3600, "CST": -6 * 3600, "CDT": -5 * 3600,
        "MST": -7 * 3600, "MDT": -6 * 3600, "PST": -8 * 3600, "PDT": -7 * 3600,
    ]

    private static func zoneOffset(_ token: String) -> Int? {
        let name = token.uppercased()
        if let offset = namedZones[name] { return offset }
        if name.count == 1, let letter = name.unicodeScalars.first, ("A"..."Z").contains(letter), letter != "J" {
            return 0
        }
        var reader = FeedDateScanner(token)
        guard let offset = reader.zoneOffset(), reader.isAtEnd, token.first != "Z" else { return nil }
        return offset
    }
}
