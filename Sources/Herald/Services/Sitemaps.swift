/// What crawlers are told exists: the published articles and the sections that have one, read at
/// `now`. Knows nothing of HTTP or XML (`CrawlersController` writes the files).
struct Sitemaps: Sendable {
    let articles: ArticleStore
    let sections: SectionStore
    let clock: Clock

    var now: Int { clock.now() }

    func publishedCount(now: Int) throws -> Int {
        try articles.publishedCount(now: now)
    }

    /// The sections with a published article (a section holding only drafts is not public).
    func sections(now: Int) throws -> [Section] {
        try sections.sectionsWithPublishedArticles(now: now)
    }

    /// Published articles `offset…offset+limit`, with when each last changed.
    func articles(offset: Int, limit: Int, now: Int) throws -> [(slug: String, lastModified: Int)] {
        try articles.sitemapEntries(offset: offset, limit: limit, now: now)
    }
}
