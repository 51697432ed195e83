/// An article as stored. `body` is plain text; paragraphs are separated by blank lines.
public struct Article: Sendable, Equatable {
    public var id: Int
    public var slug: String
    public var title: String
    public var summary: String
    public var body: String
    public var author: String
    public var section: String
    /// Seconds since 1970, UTC.
    public var publishedAt: Int
    public var likeCount: Int
    public var commentCount: Int

    public var paragraphs: [String] { Paragraphs.split(body) }
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

    public init(
        sourceID: String, title: String, summary: String, body: String, author: String, section: String,
        publishedAt: Int
    ) {
        self.sourceID = sourceID
        self.title = title
        self.summary = summary
        self.body = body
        self.author = author
        self.section = section
        self.publishedAt = publishedAt
    }
}
