/// Each cached page type names what its cache key holds, so that what may be shared between
/// readers is decided in one place per page, not assembled from strings by controllers.
///
/// The page cache puts each reader's form token and name into a shared page as it is served;
/// everything else that differs between readers must be in the key, or the page is not shared.
protocol CachedPage {
    /// Nil when this copy of the page belongs to one reader and must not be shared.
    var cacheKey: String? { get }
}

/// The front page (and a section's page) holds nothing of the reader's but their name in the
/// header (and the login links or the logout form): one copy per page for anonymous readers, one
/// for logged-in ones.
struct FrontPageCopy: CachedPage {
    /// Only the first pages are worth keeping; deeper ones are rendered each time.
    static let cachedPages = 10

    let page: Int
    let loggedIn: Bool
    /// The section's slug; nil for the front page.
    var section: String? = nil
    /// The header's links for the reader's roles.
    var links: HeaderLinks = HeaderLinks(for: nil)

    var cacheKey: String? {
        guard page <= Self.cachedPages else { return nil }
        // Only pages of sections that exist are kept (a 404 never is), and their slugs hold no colon.
        return (section.map { "section:\($0):" } ?? "front:") + "\(page):" + (loggedIn ? "reader" : "anonymous")
            + links.cacheKey
    }
}

/// An article page differs between readers in the like form (like or unlike) and in the delete
/// forms on a reader's own comments: shared between anonymous readers, and between logged-in
/// readers in the same like state who have no comment there.
struct ArticlePageCopy: CachedPage {
    let slug: String
    let view: ArticleReaderView
    /// Which page of its comments; only the first pages are kept.
    var commentsPage = 1
    /// A moderator's copy shows hidden comments and moderation forms: never shared.
    var moderating = false
    /// The header's links for the reader's roles (an editor's Newsroom link).
    var links: HeaderLinks = HeaderLinks(for: nil)

    var cacheKey: String? {
        if moderating || commentsPage > FrontPageCopy.cachedPages { return nil }
        switch view {
        case .anonymous: return "article:\(slug):\(commentsPage):anonymous"
        case .reader(_, hasOwnComments: true), .unpublished: return nil
        case .reader(let liked, hasOwnComments: false):
            return "article:\(slug):\(commentsPage):reader:\(liked)" + links.cacheKey
        }
    }
}

/// A feed holds nothing of the reader's (its links come from the site's address, never from a
/// request's Host): one copy for the site's, one per section.
struct FeedCopy: CachedPage {
    /// The section's slug; nil for the site's feed.
    let section: String?

    var cacheKey: String? {
        // Only feeds of sections that exist are kept (a 404 never is), and slugs hold no colon.
        return "feed:" + (section ?? "")
    }
}
