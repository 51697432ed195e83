/// What the newsroom's desk lists: every article, or those in one state, in one section, by one
/// author, or whose title holds every word of a query — any of them together.
struct DeskFilter: Sendable, Equatable {
    var state: ArticleState?
    /// A section's slug.
    var section: String?
    /// A byline, exactly as stored.
    var author: String?
    /// Words that must all be in the title (any case, as typed otherwise).
    var words: [String] = []

    static let maximumQueryCharacters = 200

    var isEmpty: Bool { state == nil && section == nil && author == nil && words.isEmpty }

    /// The words of `query`: split on white space, at most ten kept.
    static func words(of query: String) -> [String] {
        Array(query.split(whereSeparator: \.isWhitespace).prefix(10).map(String.init))
    }
}

/// The choices the desk's filter form offers, read from the articles themselves.
struct DeskChoices: Sendable, Equatable {
    /// Slug and name of every section an article is in, by name.
    let sections: [(slug: String, name: String)]
    /// Every byline, in order.
    let authors: [String]

    static func == (a: DeskChoices, b: DeskChoices) -> Bool {
        a.authors == b.authors && a.sections.map(\.slug) == b.sections.map(\.slug)
            && a.sections.map(\.name) == b.sections.map(\.name)
    }
}
