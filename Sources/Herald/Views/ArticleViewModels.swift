import Mustache

/// How an article appears in templates: on the front page, on its own page, in the feed.
struct ArticleSummaryView: MustacheObject {
    let article: Article

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "title": .string(article.title)
        case "slug": .string(article.slug)
        case "url": .string(ArticlePaths.article(article.slug))
        case "summary": .string(article.summary)
        case "author": .string(article.author)
        case "section": article.section.isEmpty ? .null : .string(article.section)
        case "date_iso": .string(DateText.rfc3339(article.publishedAt))
        case "date_text": .string(DateText.long(article.publishedAt))
        case "like_count": .int(article.likeCount)
        case "like_label": .string(article.likeCount == 1 ? "like" : "likes")
        case "comment_count": .int(article.commentCount)
        case "comment_label": .string(article.commentCount == 1 ? "comment" : "comments")
        default: nil
        }
    }
}

/// The article page adds the body, as escaped HTML paragraphs, and the like form.
struct ArticlePageView: MustacheObject {
    let article: Article
    /// The logged-in reader already likes it: the page offers *Unlike* instead of *Like*.
    let liked: Bool
    private let summary: ArticleSummaryView
    /// `<p>` elements whose text is already escaped (`ArticleBodies`); the template prints it raw.
    private let bodyHTML: String

    init(article: Article, liked: Bool, bodyHTML: String) {
        self.article = article
        self.liked = liked
        self.summary = ArticleSummaryView(article: article)
        self.bodyHTML = bodyHTML
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "body_html": .string(bodyHTML)
        case "liked": .bool(liked)
        case "like_action": .string(ArticlePaths.like(article.slug))
        case "unlike_action": .string(ArticlePaths.unlike(article.slug))
        default: summary.value(forKey: key)
        }
    }
}

/// URL paths for articles, in one place. Slugs are ASCII (see `Slug`), so they need no encoding.
enum ArticlePaths {
    static func article(_ slug: String) -> String { "/articles/\(slug)" }
    static func like(_ slug: String) -> String { "/articles/\(slug)/like" }
    static func unlike(_ slug: String) -> String { "/articles/\(slug)/unlike" }
    static func comments(_ slug: String) -> String { "/articles/\(slug)/comments" }
}
