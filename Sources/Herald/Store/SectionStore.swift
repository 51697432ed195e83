import TextSupport

/// A section of the site: its name as first written and its address (`/sections/{slug}`).
public struct Section: Sendable, Equatable {
    public var slug: String
    public var name: String
}

/// Sections in SQL. A section exists once an article names it; its slug never changes.
/// Names are matched without regard to case or surrounding spaces ("World" is "world ").
public final class SectionStore: Sendable {
    static let maximumNameCharacters = 60

    private let database: Database

    public init(database: Database) {
        self.database = database
    }

    /// The section at `slug` when it has an article readers can see at `now`.
    public func section(slug: String, publishedBy now: Int) throws -> Section? {
        try database.withConnection { connection in
            try connection.query(
                "SELECT slug, name FROM sections WHERE slug = ? AND \(Self.hasPublishedArticle)",
                [.text(slug), .integer(Int64(now))])
        }.first.map { Section(slug: $0.string(0), name: $0.string(1)) }
    }

    /// Where an old address of a section leads (`OldSlugs`): its slug now, or nil.
    public func slug(movedFrom old: String) throws -> String? {
        try database.withConnection { try OldSlugs.section(movedFrom: old, $0) }
    }

    /// The sections that have an article readers can see at `now`, by name.
    public func sectionsWithPublishedArticles(now: Int) throws -> [Section] {
        try database.withConnection { connection in
            try connection.query(
                "SELECT slug, name FROM sections WHERE \(Self.hasPublishedArticle) ORDER BY name_key",
                [.integer(Int64(now))])
        }.map { Section(slug: $0.string(0), name: $0.string(1)) }
    }

    /// The condition on `sections` that one of its articles is published at the time bound to `?`.
    private static let hasPublishedArticle = """
        EXISTS (
            SELECT 1 FROM articles WHERE articles.section_slug = sections.slug AND articles.draft = 0
            AND articles.published_at <= ?)
        """

    /// The section called `name`, made when none is yet; nil for an empty name (no section).
    /// Runs inside the caller's write transaction.
    static func resolve(_ name: String, _ connection: any SQLConnection) throws -> Section? {
        let name = name.singleLine
        guard !name.isEmpty else { return nil }
        let key = name.lowercased()
        if let row = try connection.query("SELECT slug, name FROM sections WHERE name_key = ?", [.text(key)]).first {
            return Section(slug: row.string(0), name: row.string(1))
        }
        // A name without letters or digits ("★") keeps an address made of its characters.
        let slug = try uniqueSlug(from: Slug.make(from: name) ?? Slug.codePoints(of: name), connection)
        try connection.query(
            "INSERT INTO sections (slug, name, name_key) VALUES (?, ?, ?)", [.text(slug), .text(name), .text(key)])
        return Section(slug: slug, name: name)
    }

    /// `base`, with `-2`, `-3`… appended until no section has it: two names that make the same
    /// slug ("World" and "world!" are different names) get two addresses.
    static func uniqueSlug(from base: String, _ connection: any SQLConnection) throws -> String {
        var slug = base
        var suffix = 2
        while try !connection.query("SELECT 1 FROM sections WHERE slug = ?", [.text(slug)]).isEmpty {
            slug = "\(base)-\(suffix)"
            suffix += 1
        }
        return slug
    }

    /// Migration 7: a section for each name the stored articles use, and their slugs set.
    static func backfill(_ connection: any SQLConnection) throws {
        let names = try connection.query("SELECT DISTINCT section FROM articles WHERE section <> ''").map {
            $0.string(0)
        }
        for name in names {
            guard let section = try resolve(name, connection) else { continue }
            try connection.query(
                "UPDATE articles SET section_slug = ? WHERE section = ?", [.text(section.slug), .text(name)])
        }
    }
}
