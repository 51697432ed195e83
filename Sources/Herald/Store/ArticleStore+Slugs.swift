import Foundation

/// Articles' slugs: unique, made from the title (`Slug`), or the article's id when the title has
/// no letter or digit in any script.
extension ArticleStore {
    /// Where an old address of a published article leads (`OldSlugs`): its slug now, or nil.
    public func slug(movedFrom old: String, publishedBy now: Int) throws -> String? {
        try database.withConnection { try OldSlugs.article(movedFrom: old, publishedBy: now, $0) }
    }

    /// What a new article's slug starts as when it will be its id: ids exist only once the row
    /// does. `~` is never in a made slug, and the random part keeps two such rows apart until
    /// `settleSlug` replaces it, in the same transaction.
    static let pendingSlugPrefix = "~pending-"

    /// The slug for a new article titled `title`, unique; a placeholder when it is to be its id.
    static func newSlug(for title: String, _ connection: any SQLConnection) throws -> String {
        guard let base = Slug.make(from: title) else { return pendingSlugPrefix + UUID().uuidString }
        return try uniqueSlug(from: base, except: 0, connection)
    }

    /// Gives the new article `id` its id as slug when `slug` was the placeholder.
    static func settleSlug(_ slug: String, id: Int, _ connection: any SQLConnection) throws {
        guard slug.hasPrefix(pendingSlugPrefix) else { return }
        let settled = try uniqueSlug(from: String(id), except: id, connection)
        try connection.query("UPDATE articles SET slug = ? WHERE id = ?", [.text(settled), .integer(Int64(id))])
    }

    /// `base`, with `-2`, `-3`… appended until no other article has it. A title "2024" and the
    /// article whose id is 2024 cannot meet at the same address either.
    static func uniqueSlug(from base: String, except id: Int, _ connection: any SQLConnection) throws -> String {
        var candidate = base
        var suffix = 2
        while try !connection.query(
            "SELECT 1 FROM articles WHERE slug = ? AND id <> ?", [.text(candidate), .integer(Int64(id))]
        ).isEmpty {
            candidate = "\(base)-\(suffix)"
            suffix += 1
        }
        return candidate
    }
}
