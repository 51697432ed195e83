import TextSupport

/// How an article is read from SQL: the one column list and the one row mapping every store uses.
extension Article {
    /// The columns `init(row:)` reads, in its order, qualified so they also work in a join.
    static let columns = columnList(body: "articles.body", bodyHTML: "articles.body_html")

    /// How many columns `columns` is: what a query selects after them starts at this index.
    static let columnCount = columns.split(separator: ",").count

    /// The same columns with an empty body, for lists that show no text (front page, liked articles).
    static let listColumns = columnList(body: "''", bodyHTML: "NULL")

    private static func columnList(body: String, bodyHTML: String) -> String {
        "articles.id, articles.slug, articles.title, articles.summary, \(body), articles.author, articles.section, "
            + "articles.published_at, articles.like_count, articles.comment_count, articles.section_slug, "
            + "articles.draft, articles.slug_fixed, articles.author_id, \(bodyHTML), articles.revised_at, "
            + "articles.original_url, articles.image_name, articles.image_width, articles.image_height, "
            + "articles.image_alt, articles.updated_at, articles.language"
    }

    /// An article from a row selected with `columns` or `listColumns`.
    init(row: SQLRow) {
        self.init(
            id: row.int(0), slug: row.string(1), title: row.string(2), summary: row.string(3), body: row.string(4),
            author: row.string(5), section: row.string(6), publishedAt: row.int(7), likeCount: row.int(8),
            commentCount: row.int(9))
        sectionSlug = row.string(10)
        isDraft = row.int(11) != 0
        slugIsFixed = row.int(12) != 0
        authorID = row.optionalInt(13)
        bodyHTML = row.optionalString(14)
        revisedAt = row.optionalInt(15)
        originalURL = row.string(16)
        let imageName = row.string(17)
        image =
            imageName.isEmpty
            ? nil : ArticleImage(name: imageName, width: row.int(18), height: row.int(19), alt: row.string(20))
        updatedAt = row.int(21)
        language = row.optionalString(22)
    }

    /// Whether the stored text and date already match what a feed brings (re-importing it changes nothing).
    func matches(_ incoming: IncomingArticle) -> Bool {
        title == incoming.title && summary == incoming.summary && body == incoming.body
            && author == incoming.author && publishedAt == incoming.publishedAt && originalURL == incoming.originalURL
            && section.singleLine.lowercased() == incoming.section.singleLine.lowercased()
            && language == incoming.language
    }
}
