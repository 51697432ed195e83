/// What the reading pages show: a page of the newest articles, and an article with what the
/// reader's own copy of it depends on. Knows nothing of HTTP or templates.
final class ArticlePages: Sendable {
    static let pageSize = 20
    /// The front page goes back this many pages (10,000 articles); deeper pages answer 404 like
    /// any page past the last. OFFSET costs grow with depth (measured: page 5,000 of 100,000
    /// articles took 175 ms), and this keeps every page's cost flat at any table size.
    /// Older articles stay at their own addresses and in the feed.
    static let maximumPage = 500

    enum FrontPage: Sendable, Equatable {
        case articles([Article], hasOlder: Bool)
        case beyondTheArchive
        case pastTheLast
    }

    private let articles: ArticleStore
    private let likes: LikeStore
    private let comments: CommentStore

    init(articles: ArticleStore, likes: LikeStore, comments: CommentStore) {
        self.articles = articles
        self.likes = likes
        self.comments = comments
    }

    func front(page number: Int) throws -> FrontPage {
        guard number <= Self.maximumPage else { return .beyondTheArchive }
        let (items, hasOlder) = try articles.page(number, size: Self.pageSize)
        if items.isEmpty && number > 1 { return .pastTheLast }
        return .articles(items, hasOlder: hasOlder && number < Self.maximumPage)
    }

    /// The newest articles with their bodies (for the feed).
    func newest(_ count: Int) throws -> [Article] {
        try articles.newest(limit: count)
    }

    func article(_ slug: String) throws -> Article? {
        try articles.article(slug: slug)
    }

    /// How `reader`'s copy of the article page differs from others': nothing to look up for an
    /// anonymous reader; a logged-in reader's like state and whether they commented there.
    /// Nil for an unknown article (known only once it was looked up for a reader).
    func readerView(of slug: String, for reader: User?) throws -> ArticleReaderView? {
        guard let reader else { return .anonymous }
        guard let article = try articles.article(slug: slug) else { return nil }
        let liked = try likes.likes(userID: reader.id, articleID: article.id)
        let commented = try comments.hasComment(byUserID: reader.id, articleID: article.id)
        return .reader(article, liked: liked, hasOwnComments: commented)
    }
}

/// What a reader's copy of an article page depends on.
enum ArticleReaderView: Sendable, Equatable {
    case anonymous
    case reader(Article, liked: Bool, hasOwnComments: Bool)

    var liked: Bool {
        if case .reader(_, let liked, _) = self { return liked }
        return false
    }

    /// The article, when it was already read to find the reader's view.
    var article: Article? {
        if case .reader(let article, _, _) = self { return article }
        return nil
    }
}
