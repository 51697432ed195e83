/// A comment as shown under its article.
public struct Comment: Sendable, Equatable {
    public var id: Int
    public var articleID: Int
    public var userID: Int
    public var author: String
    public var body: String
    public var createdAt: Int
    /// Hidden by a moderator: it keeps its place, but its text is shown to moderators only.
    public var isHidden = false
    /// The comment it answers; nil for a top-level comment.
    public var parentID: Int?
    /// The top-level comment of its conversation (itself for a top-level comment).
    public var threadID = 0
    /// When its author last edited it.
    public var editedAt: Int?
}
