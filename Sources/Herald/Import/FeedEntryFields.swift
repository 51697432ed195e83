import Foundation

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
    /// The entry's web page, kept when it is an http or https URL ("Read the original at …").
    var link = ""
    /// The date as written; parsed by `article` with the format's own parser.
    var date: String?
    /// The language the entry (or its feed) says it is written in; kept when it is a BCP 47 tag.
    var language: String?

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
            publishedAt: publishedAt, originalURL: OriginalURL.checked(link),
            language: LanguageTag.validated(language))
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
