/// How an article is read from SQL: the one column list and the one row mapping every store uses.
extension Article {
    /// The columns `init(row:)` reads, in its order, qualified so they also work in a join.
    static let columns = columnList(body: "articles.body")

    /// The same columns with an empty body, for lists that show no text (front page, liked articles).
    static let listColumns = columnList(body: "''")

    private static func columnList(body: String) -> String {
        "articles.id, articles.slug, articles.title, articles.summary, \(body), articles.author, articles.section, "
            + "articles.published_at, articles.like_count, articles.comment_count"
    }

    /// An article from a row selected with `columns` or `listColumns`.
    init(row: SQLRow) {
        self.init(
            id: row.int(0), slug: row.string(1), title: row.string(2), summary: row.string(3), body: row.string(4),
            author: row.string(5), section: row.string(6), publishedAt: row.int(7), likeCount: row.int(8),
            commentCount: row.int(9))
    }

    /// Whether the stored text and date already match what a feed brings (re-importing it changes nothing).
    func matches(_ incoming: IncomingArticle) -> Bool {
        title == incoming.title && summary == incoming.summary && body == incoming.body
            && author == incoming.author && section == incoming.section && publishedAt == incoming.publishedAt
    }
}
