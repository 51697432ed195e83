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
        case "section_url": article.sectionSlug.isEmpty ? .null : .string(SectionPaths.section(article.sectionSlug))
        case "image": article.image.map { .object(ImageView(image: $0)) } ?? .null
        case "date_iso": .string(DateText.rfc3339(article.publishedAt))
        case "date_text": .string(DateText.long(article.publishedAt))
        case "like_count": .int(article.likeCount)
        case "like_label": .string(Messages.rendering[article.likeCount == 1 ? "like_one" : "like_many"])
        // A card says "3 likes · 1 comment", and nothing of a count that is zero.
        case "has_likes": .bool(article.likeCount > 0)
        case "comment_count": .int(article.commentCount)
        case "comment_label":
            .string(Messages.rendering[article.commentCount == 1 ? "comment_one" : "comment_many"])
        case "has_comments_count": .bool(article.commentCount > 0)
        // The language its text is in, independent of the interface's (nil: the site's, which the
        // layout gives as `site_language`).
        case "content_language": article.language.map(MustacheValue.string) ?? .null
        default: nil
        }
    }
}

/// An article's lead image, with the size that keeps the page from jumping as it loads.
struct ImageView: MustacheObject {
    let image: ArticleImage

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "src": .string(MediaPaths.media(image.name))
        case "width": .int(image.width)
        case "height": .int(image.height)
        case "alt": .string(image.alt)
        default: nil
        }
    }
}

/// The article page adds the body (safe HTML: `ArticleBodies`), the like form, when it was
/// updated, where an import came from, and for editors whether readers can see it yet.
struct ArticlePageView: MustacheObject {
    let article: Article
    /// The logged-in reader already likes it: the page offers *Unlike* instead of *Like*.
    let liked: Bool
    /// Draft or scheduled: only editors see it, under a banner saying so.
    let state: ArticleState
    private let summary: ArticleSummaryView
    /// Already safe HTML (`ArticleBodies`; the template prints it raw) and its reading time.
    private let body: ArticleBodies.Body

    init(article: Article, liked: Bool, body: ArticleBodies.Body, state: ArticleState) {
        self.article = article
        self.liked = liked
        self.state = state
        self.summary = ArticleSummaryView(article: article)
        self.body = body
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "body_html": .string(body.html)
        case "reading_time":
            .string(Messages.rendering.format("reading_time", ["minutes": String(body.readingMinutes)]))
        case "unpublished_banner":
            switch state {
            case .published: .null
            case .draft: .string(Messages.rendering["banner_draft"])
            case .scheduled:
                .string(
                    Messages.rendering.format(
                        "banner_scheduled", ["time": DateText.dayAndTime(article.publishedAt)]))
            }
        case "updated":
            article.revisedAt.flatMap { revised in
                revised > article.publishedAt
                    ? [
                        "iso": .string(DateText.rfc3339(revised)),
                        "text": .string(DateText.dayAndTime(revised) + " UTC"),
                    ] : nil
            } ?? .null
        case "original_url": article.originalURL.isEmpty ? .null : .string(article.originalURL)
        case "original_host": .string(OriginalURL.host(of: article.originalURL))
        case "liked": .bool(liked)
        case "like_action": .string(ArticlePaths.like(article.slug))
        case "unlike_action": .string(ArticlePaths.unlike(article.slug))
        default: summary.value(forKey: key)
        }
    }
}

/// URL paths for sections: IRIs, like `ArticlePaths` (a section named 港口 is at `/sections/港口`).
enum SectionPaths {
    static func section(_ slug: String) -> String { "/sections/\(slug)" }
    static func feed(_ slug: String) -> String { "/sections/\(slug)/feed.atom" }
}

/// URL paths for articles, in one place. A slug may hold any script (`Slug`): these are IRIs, as
/// links in pages carry them (valid in an HTML `href`); whatever puts one in a header or an
/// absolute URL percent-encodes it (`Response.redirect`, `PercentEncoding.uri(fromIRI:)`).
enum ArticlePaths {
    static func article(_ slug: String) -> String { "/articles/\(slug)" }
    static func like(_ slug: String) -> String { "/articles/\(slug)/like" }
    static func unlike(_ slug: String) -> String { "/articles/\(slug)/unlike" }
    /// Where a like or an unlike without the page's script lands: the article, scrolled to its
    /// like button (SPEC "Pages, in small ways": the 303 may carry this fragment).
    static func likeControl(_ slug: String) -> String { "/articles/\(slug)#like" }
    static func comments(_ slug: String) -> String { "/articles/\(slug)/comments" }
}
