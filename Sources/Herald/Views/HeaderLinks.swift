/// The header's links that depend on the reader's roles: the newsroom for editors, moderation
/// for moderators. The services' predicates decide (no role is checked here), and a shared copy
/// of a page holds them in its cache key, so a reader is never served a moderator's header.
struct HeaderLinks: Sendable, Equatable {
    let newsroom: Bool
    let moderation: Bool

    init(for reader: User?) {
        newsroom = Newsroom.mayWrite(reader)
        moderation = Moderation.mayModerate(reader)
    }

    /// What a cached page's key adds for these links: nothing for a reader without either.
    var cacheKey: String {
        (newsroom ? ":newsroom" : "") + (moderation ? ":moderation" : "")
    }
}
