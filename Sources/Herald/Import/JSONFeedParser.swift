import Foundation

/// JSON Feed 1.0 and 1.1 (https://jsonfeed.org). Read with JSONSerialization rather than Codable so that
/// each wrong or missing member gets a message naming the item and the member.
enum JSONFeedParser {
    static let versionPrefix = "https://jsonfeed.org/version/"

    static func parse(_ data: [UInt8]) throws(FeedIssue) -> [IncomingArticle] {
        let document: Any
        do {
            document = try JSONSerialization.jsonObject(with: Data(data))
        } catch {
            let details = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
            throw FeedIssue("not valid JSON: \(details ?? error.localizedDescription)")
        }
        guard let feed = document as? [String: Any], let version = feed["version"] as? String,
            version.hasPrefix(versionPrefix)
        else {
            throw FeedIssue.unknownFormat("JSON without \"version\": \"\(versionPrefix)…\"")
        }
        guard let items = feed["items"] as? [Any] else { throw FeedIssue("\"items\" is missing or not an array") }
        guard items.count <= FeedParser.maximumEntries else { throw FeedIssue.tooManyEntries }

        // Items without authors inherit the feed's (JSON Feed 1.1, "authors").
        let feedAuthor = try authorName(in: feed, of: "the feed") ?? ""
        var articles: [IncomingArticle] = []
        articles.reserveCapacity(items.count)
        for (offset, value) in items.enumerated() {
            let position = "item \(offset + 1)"
            guard let item = value as? [String: Any] else { throw FeedIssue("\(position) is not an object") }
            var article = try article(from: item, position: position, feedAuthor: feedAuthor)
            // JSON Feed 1.1: `language` on the item, else on the feed.
            article.language = LanguageTag.validated(item["language"] as? String ?? feed["language"] as? String)
            articles.append(article)
        }
        return articles
    }

    private static func article(from item: [String: Any], position: String, feedAuthor: String) throws(FeedIssue)
        -> IncomingArticle
    {
        var fields = FeedEntryFields(position: position)
        fields.sourceID = try id(of: item, position: position)
        fields.link = try string("url", in: item, of: position) ?? ""
        fields.title = try string("title", in: item, of: position).map(HTMLText.singleLine) ?? ""
        fields.summary = try string("summary", in: item, of: position).map(HTMLText.singleLine) ?? ""
        // content_text is the publisher's own plain version; prefer it to converting HTML.
        if let text = try string("content_text", in: item, of: position), !text.isEmpty {
            fields.body = HTMLText.normalizePlainText(text)
        } else if let html = try string("content_html", in: item, of: position) {
            fields.body = HTMLText.plainParagraphs(fromHTML: html)
        }
        fields.author = try authorName(in: item, of: position) ?? feedAuthor
        if let tags = item["tags"], !(tags is NSNull) {
            guard let list = tags as? [Any] else { throw FeedIssue("\(position): \"tags\" is not an array") }
            fields.section = (list.first as? String).map(FeedEntryFields.section(from:)) ?? ""
        }
        fields.date = try string("date_published", in: item, of: position)
        if fields.date == nil { fields.date = try string("date_modified", in: item, of: position) }
        return try fields.article(
            idNames: "id", dateNames: "date_published or date_modified", parseDate: FeedDate.rfc3339)
    }

    /// The spec requires a string id but tells readers to coerce other values (some feeds use numbers).
    private static func id(of item: [String: Any], position: String) throws(FeedIssue) -> String {
        switch item["id"] {
        case let id as String: return id
        case let number as NSNumber: return number.stringValue
        case nil, is NSNull: return ""
        default: throw FeedIssue("\(position): \"id\" is neither a string nor a number")
        }
    }

    /// `authors[0].name` (1.1), else the deprecated `author.name` (1.0).
    private static func authorName(in object: [String: Any], of position: String) throws(FeedIssue) -> String? {
        if let authors = object["authors"], !(authors is NSNull) {
            guard let list = authors as? [Any] else { throw FeedIssue("\(position): \"authors\" is not an array") }
            if let first = list.first as? [String: Any],
                let name = try string("name", in: first, of: position).map(HTMLText.singleLine), !name.isEmpty
            {
                return name
            }
        }
        if let author = object["author"] as? [String: Any],
            let name = try string("name", in: author, of: position).map(HTMLText.singleLine), !name.isEmpty
        {
            return name
        }
        return nil
    }

    /// The member as a string; nil if absent or null; an error if it is something else, since a feed
    /// with `"title": 42` is broken and guessing would hide it.
    private static func string(_ key: String, in object: [String: Any], of position: String) throws(FeedIssue)
        -> String?
    {
        guard let value = object[key], !(value is NSNull) else { return nil }
        guard let text = value as? String else { throw FeedIssue("\(position): \"\(key)\" is not a string") }
        return text
    }
}
