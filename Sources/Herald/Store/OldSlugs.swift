import Foundation

/// Addresses that moved: slugs articles and sections had before slugs kept letters in any script.
/// Until then a title without ASCII letters or digits ("渡輪班次延長至午夜", 港口) got the generic
/// `article`, `article-2`…, `section`…; links to those must keep working (SPEC: old addresses
/// redirect), so each old slug is kept and answered with a 301 to the new one.
enum OldSlugs {
    /// The slug an old address of an article now leads to, when that article is published at `now`
    /// (a draft's new slug would give away its title).
    static func article(movedFrom slug: String, publishedBy now: Int, _ connection: any SQLConnection) throws
        -> String?
    {
        try connection.query(
            """
            SELECT articles.slug FROM article_redirects JOIN articles ON articles.id = article_redirects.article_id
            WHERE article_redirects.slug = ? AND \(ArticleStore.published)
            """, [.text(slug), .integer(Int64(now))]
        ).first?.string(0)
    }

    /// The slug an old address of a section now leads to (the section page decides whether it
    /// shows anything there).
    static func section(movedFrom slug: String, _ connection: any SQLConnection) throws -> String? {
        try connection.query("SELECT section_slug FROM section_redirects WHERE slug = ?", [.text(slug)]).first?
            .string(0)
    }

    /// The migration: every article and section whose slug is the old generic one because its
    /// title had no ASCII letter or digit gets a slug from its title (or its id, for an article
    /// titled only in punctuation), and its old slug is kept. Runs in the migration's transaction.
    static func backfill(_ connection: any SQLConnection) throws {
        let articles = try connection.query(
            "SELECT id, slug, title FROM articles WHERE slug = 'article' OR slug LIKE 'article-%' ORDER BY id")
        for row in articles {
            let (id, old, title) = (row.int(0), row.string(1), row.string(2))
            guard isGeneric(old, word: "article"), !hadASCIIWord(title) else { continue }
            let new = try ArticleStore.uniqueSlug(from: Slug.make(from: title) ?? String(id), except: id, connection)
            try connection.query("UPDATE articles SET slug = ? WHERE id = ?", [.text(new), .integer(Int64(id))])
            try connection.query(
                "INSERT INTO article_redirects (slug, article_id) VALUES (?, ?)", [.text(old), .integer(Int64(id))])
        }
        let sections = try connection.query(
            "SELECT slug, name FROM sections WHERE slug = 'section' OR slug LIKE 'section-%' ORDER BY slug")
        for row in sections {
            let (old, name) = (row.string(0), row.string(1))
            guard isGeneric(old, word: "section"), !hadASCIIWord(name) else { continue }
            let new = try SectionStore.uniqueSlug(from: Slug.make(from: name) ?? Slug.codePoints(of: name), connection)
            try connection.query("UPDATE sections SET slug = ? WHERE slug = ?", [.text(new), .text(old)])
            try connection.query(
                "UPDATE articles SET section_slug = ? WHERE section_slug = ?", [.text(new), .text(old)])
            try connection.query(
                "INSERT INTO section_redirects (slug, section_slug) VALUES (?, ?)", [.text(old), .text(new)])
        }
    }

    /// `word` or `word-N`: what the old slugs fell back to.
    static func isGeneric(_ slug: String, word: String) -> Bool {
        guard slug.hasPrefix(word) else { return false }
        let rest = slug.dropFirst(word.count)
        return rest.isEmpty || (rest.first == "-" && rest.count > 1 && rest.dropFirst().allSatisfy(\.isASCIIDigit))
    }

    /// Whether the old slug maker found a word in `title`: an ASCII letter or digit once accents,
    /// case and width were folded. When it did, `article-2` was made from the title itself
    /// ("Article 2") and stays.
    static func hadASCIIWord(_ title: String) -> Bool {
        title.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
            .unicodeScalars.contains { $0.isASCII && CharacterSet.alphanumerics.contains($0) }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isWholeNumber }
}
