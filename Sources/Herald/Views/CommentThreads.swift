/// An article's comments as conversations: each reply inside the comment it answers, up to
/// depth 3 (a top-level comment is depth 1). A reply to a comment at depth 3 or deeper is shown
/// inside that depth-3 ancestor, after the replies before it, so threads never drift off the
/// page; it still names the comment it answered (`data-parent`). A reply whose parent is gone
/// (deleted) is shown under a "Deleted comment" in the parent's place.
struct CommentNode: Sendable {
    static let maximumNesting = 3

    /// Nil for the place of a deleted comment.
    let comment: Comment?
    let id: Int
    let depth: Int
    let replies: [CommentNode]

    /// The conversations of `comments`, as top-level nodes, oldest first.
    static func threads(of comments: [Comment]) -> [CommentNode] {
        var builder = Builder()
        for comment in comments.sorted(by: { $0.id < $1.id }) { builder.add(comment) }
        return builder.roots.sorted().map(builder.node)
    }

    /// Places comments by id first, then builds the immutable tree.
    private struct Builder {
        var roots: [Int] = []
        var comments: [Int: Comment] = [:]
        var depths: [Int: Int] = [:]
        /// Each node's replies, in order.
        var replies: [Int: [Int]] = [:]
        /// Where each comment's own replies go: itself until depth 3, then its depth-3 ancestor.
        var holders: [Int: Int] = [:]

        mutating func add(_ comment: Comment) {
            comments[comment.id] = comment
            guard let parentID = comment.parentID else {
                addRoot(comment.id)
                return
            }
            // Its parent was deleted: a placeholder in the parent's place — inside the conversation
            // when the top-level comment is still there, else at the top level.
            if depths[parentID] == nil {
                if comment.threadID != parentID, let root = holders[comment.threadID] {
                    addPlaceholder(parentID, under: root)
                } else {
                    addRoot(parentID)
                }
            }
            let container = holders[parentID] ?? parentID
            let depth = (depths[container] ?? 1) + 1
            depths[comment.id] = depth
            replies[container, default: []].append(comment.id)
            holders[comment.id] = depth <= CommentNode.maximumNesting ? comment.id : container
        }

        private mutating func addPlaceholder(_ id: Int, under container: Int) {
            let depth = (depths[container] ?? 1) + 1
            depths[id] = depth
            replies[container, default: []].append(id)
            holders[id] = depth <= CommentNode.maximumNesting ? id : container
        }

        private mutating func addRoot(_ id: Int) {
            roots.append(id)
            depths[id] = 1
            holders[id] = id
        }

        func node(_ id: Int) -> CommentNode {
            CommentNode(
                comment: comments[id], id: id, depth: depths[id] ?? 1, replies: (replies[id] ?? []).map(node))
        }
    }
}
