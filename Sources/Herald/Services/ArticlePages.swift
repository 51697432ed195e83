/// What the reading pages show: a page of the newest articles (of the site or of one section),
/// and an article with what the reader's own copy of it depends on. Readers see published
/// articles only; editors also see drafts and scheduled ones. Knows nothing of HTTP or templates.
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
    private let sections: SectionStore
    private let clock: Clock

    init(articles: ArticleStore, sections: SectionStore, clock: Clock) {
        self.articles = articles
        self.sections = sections
        self.clock = clock
    }

    /// A page of the front page, or of `section`'s page.
    func front(page number: Int, section: Section? = nil) throws -> FrontPage {
        guard number <= Self.maximumPage else { return .beyondTheArchive }
        let (items, hasOlder) = try articles.page(number, size: Self.pageSize, now: clock.now(), section: section?.slug)
        if items.isEmpty && number > 1 { return .pastTheLast }
        return .articles(items, hasOlder: hasOlder && number < Self.maximumPage)
    }

    /// The newest published articles, without their bodies: what a page that was not found
    /// offers instead.
    func latest(_ count: Int) throws -> [Article] {
        try articles.page(1, size: count, now: clock.now(), section: nil).0
    }

    /// The section at `slug` while it has an article readers can see; nil otherwise, exactly as
    /// for a slug no section has: a section of drafts or scheduled articles is not public yet,
    /// and its page would give away its name (SPEC: a section page exists only while the
    /// section has a published article).
    func section(_ slug: String) throws -> Section? {
        try sections.section(slug: slug, publishedBy: clock.now())
    }

    /// Where an address that is no article's leads, when it was one's before slugs kept Chinese
    /// (and every other script's) letters: the published article's slug now. Nil otherwise.
    func articleSlug(movedFrom slug: String) throws -> String? {
        try articles.slug(movedFrom: slug, publishedBy: clock.now())
    }

    /// The same for a section's old address, while the section it leads to is public.
    func sectionSlug(movedFrom slug: String) throws -> String? {
        guard let moved = try sections.slug(movedFrom: slug), try section(moved) != nil else { return nil }
        return moved
    }

    /// The newest published articles with their bodies (for feeds), of one section or all.
    func newest(_ count: Int, section: Section? = nil) throws -> [Article] {
        try articles.newest(limit: count, now: clock.now(), section: section?.slug)
    }

    /// The article at `slug` when `reader` may see it: published, or any state for an editor.
    func article(_ slug: String, for reader: User?) throws -> Article? {
        guard let article = try articles.article(slug: slug) else { return nil }
        return Self.may(reader, see: article, at: clock.now()) ? article : nil
    }

    /// The article at `slug` when it is published: what likes and comments act on.
    func publishedArticle(_ slug: String) throws -> Article? {
        try article(slug, for: nil)
    }

    static func may(_ reader: User?, see article: Article, at now: Int) -> Bool {
        article.isPublished(at: now) || reader?.roles.grants(.editor) == true
    }

    /// How `reader`'s copy of the article page differs from others': nothing to look up for an
    /// anonymous reader; a logged-in reader's like state and whether they commented there (one
    /// read, without the body: a page served from the cache never needs it).
    /// Nil for an article the reader may not see (known only once it was looked up for a reader).
    func readerView(of slug: String, for reader: User?) throws -> ArticleReaderView? {
        guard let reader else { return .anonymous }
        guard let state = try articles.readerState(slug: slug, userID: reader.id) else { return nil }
        guard state.isPublished(at: clock.now()) else {
            // Drafts and scheduled articles: editors only, and never from the cache.
            guard reader.roles.grants(.editor), let article = try articles.article(slug: slug) else { return nil }
            return .unpublished(article)
        }
        return .reader(liked: state.liked, hasOwnComments: state.hasOwnComments)
    }
}

/// What a reader's copy of an article page depends on.
enum ArticleReaderView: Sendable, Equatable {
    case anonymous
    case reader(liked: Bool, hasOwnComments: Bool)
    /// A draft or scheduled article, as an editor sees it (with a banner; never shared).
    case unpublished(Article)

    var liked: Bool {
        if case .reader(let liked, _) = self { return liked }
        return false
    }

    /// The article, when it had to be read in full to find the reader's view.
    var article: Article? {
        if case .unpublished(let article) = self { return article }
        return nil
    }
}
