/// An article as stored. `body` is plain text (imports: paragraphs separated by blank lines) or,
/// for articles written in the newsroom, Markdown, rendered once into `bodyHTML`.
public struct Article: Sendable, Equatable {
    public var id: Int
    public var slug: String
    public var title: String
    public var summary: String
    public var body: String
    /// The name shown as the author: the byline, or the feed's author for imports.
    public var author: String
    /// The section's name as shown, and its slug (its address); both empty for none.
    public var section: String
    public var sectionSlug: String = ""
    /// Seconds since 1970, UTC: when it was (or is scheduled to be) published.
    public var publishedAt: Int
    public var likeCount: Int
    public var commentCount: Int
    /// A draft is never shown to readers, whatever `publishedAt` says.
    public var isDraft = false
    /// Once published the slug never changes; a draft that never was follows its title.
    public var slugIsFixed = true
    /// The account that wrote it in the newsroom; nil for imports (and deleted accounts).
    public var authorID: Int?
    /// The Markdown body as HTML, made when the text was saved; nil for plain-text imports.
    public var bodyHTML: String?
    /// When it was last edited after being published (shown as "Updated").
    public var revisedAt: Int?
    /// Where an imported article came from (an http or https URL), else empty.
    public var originalURL = ""
    public var image: ArticleImage?
    /// The language its text is written in (a BCP 47 tag), whatever the interface's; nil: the site's.
    public var language: String?
    /// When anything about it last changed (the newsroom desk's order).
    public var updatedAt = 0

    public var paragraphs: [String] { Paragraphs.split(body) }

    /// Draft, scheduled or published at `now`.
    public func state(at now: Int) -> ArticleState { Self.state(isDraft: isDraft, publishedAt: publishedAt, at: now) }

    /// The one rule, also for what reads only these two columns of an article.
    public static func state(isDraft: Bool, publishedAt: Int, at now: Int) -> ArticleState {
        if isDraft { return .draft }
        return publishedAt > now ? .scheduled : .published
    }

    /// Whether readers may see it at `now`.
    public func isPublished(at now: Int) -> Bool { state(at: now) == .published }
}

/// Where an article is in its life; the raw values are what pages show (`data-article-state`).
public enum ArticleState: String, Sendable, Equatable {
    case draft, scheduled, published
}

/// An article's lead image: the media it names and what its `<img>` needs.
public struct ArticleImage: Sendable, Equatable {
    /// `{sha256 hex}.{ext}`, served at `/media/{name}`.
    public var name: String
    public var width: Int
    public var height: Int
    public var alt: String
}

/// An article arriving from a feed or the demo content, before it has an id or slug.
public struct IncomingArticle: Sendable, Equatable {
    /// The feed's own identity for the entry (id, guid, else link): re-importing updates, never duplicates.
    public var sourceID: String
    public var title: String
    public var summary: String
    public var body: String
    public var author: String
    public var section: String
    public var publishedAt: Int
    /// The entry's web page (http or https only), shown as "Read the original".
    public var originalURL: String
    /// The language it is written in (a BCP 47 tag from the feed); nil: the site's.
    public var language: String?

    public init(
        sourceID: String, title: String, summary: String, body: String, author: String, section: String,
        publishedAt: Int, originalURL: String = "", language: String? = nil
    ) {
        self.originalURL = originalURL
        self.language = language
        self.sourceID = sourceID
        self.title = title
        self.summary = summary
        self.body = body
        self.author = author
        self.section = section
        self.publishedAt = publishedAt
    }
}
