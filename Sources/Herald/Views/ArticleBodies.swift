import Mustache
import Synchronization

/// Article bodies as HTML paragraphs, escaped once per version of the text instead of split and
/// escaped on every view (together ~17 % of an article page's instructions, measured with
/// callgrind), and their reading time, counted once per version too. Kept by article id with the
/// text they were made from; comparing that text (a memcmp) is far cheaper than splitting,
/// escaping or counting it, and an import or a save that changes it is seen.
final class ArticleBodies: Sendable {
    static let maximumEntries = 4096

    /// What the article page shows of a body.
    struct Body: Sendable {
        let html: String
        /// Minutes to read it ("4 min read", 「閱讀時間約 4 分鐘」 in the page's words).
        let readingMinutes: Int
    }

    private struct Entry {
        let text: String
        let body: Body
    }

    private let entries = Mutex<[Int: Entry]>([:])

    /// The Markdown body as rendered when it was saved, or for a plain-text import `<p>…</p>` for
    /// each paragraph, every character of the text escaped; with its reading time.
    func body(for article: Article) -> Body {
        if let entry = entries.withLock({ $0[article.id] }), entry.text == article.body,
            article.bodyHTML == nil || entry.body.html == article.bodyHTML
        {
            return entry.body
        }
        let body = Body(
            html: article.bodyHTML ?? paragraphs(of: article), readingMinutes: ReadingTime.minutes(of: article.body))
        entries.withLock { entries in
            if entries.count >= Self.maximumEntries { entries.removeAll(keepingCapacity: true) }
            entries[article.id] = Entry(text: article.body, body: body)
        }
        return body
    }

    private func paragraphs(of article: Article) -> String {
        var html = ""
        for paragraph in article.paragraphs {
            html += "<p>" + escapeHTML(paragraph) + "</p>\n"
        }
        return html
    }
}
