import Foundation
import TextSupport

/// The newsroom: editors write articles in Markdown, keep them as drafts, schedule or publish
/// them, edit them after publishing and take them back. Every rule about an article's fields and
/// its state lives here; the controller only reads forms and renders pages. Knows nothing of HTTP.
final class Newsroom: Sendable {
    static let deskPageSize = 50
    static let titleCharacters = 1...200
    static let summaryCharacters = 0...500
    static let bylineCharacters = 0...100
    static let bodyCharacters = 1...100_000
    static let altCharacters = 1...300

    /// What the editor asked for with the form's button.
    enum Action: String, Sendable, CaseIterable {
        case save, publish, unpublish
    }

    enum Outcome: Sendable, Equatable {
        /// Stored; the article as it is now, and the state it was in before (nil: it is new).
        case saved(Article, before: ArticleState?)
        /// Nothing stored: a message for each field that must change.
        case invalid([ArticleSubmission.Field: String])
        case noSuchArticle
        /// The acting account is not an editor.
        case notAllowed(String)
    }

    static let editorsOnly = "Only the site's editors can write articles. Your account is not one."

    /// Whether `user` may use the newsroom (the desk, drafts, writing and publishing).
    static func mayWrite(_ user: User?) -> Bool {
        user?.roles.grants(.editor) == true
    }

    private let articles: ArticleStore
    private let clock: Clock

    init(articles: ArticleStore, clock: Clock) {
        self.articles = articles
        self.clock = clock
    }

    var now: Int { clock.now() }

    func desk(page number: Int, filter: DeskFilter = DeskFilter(), by user: User) throws -> Permitted<
        (articles: [ArticleStore.DeskEntry], hasOlder: Bool)
    > {
        guard Self.mayWrite(user) else { return .notAllowed(Self.editorsOnly) }
        return .allowed(try articles.deskPage(number, size: Self.deskPageSize, filter: filter, now: clock.now()))
    }

    /// The sections and bylines the desk's filters offer.
    func deskChoices(by user: User) throws -> Permitted<DeskChoices> {
        guard Self.mayWrite(user) else { return .notAllowed(Self.editorsOnly) }
        return .allowed(try articles.deskChoices())
    }

    /// Article `id` in any state (drafts included), for an editor.
    func article(id: Int, by user: User) throws -> Permitted<Article?> {
        guard Self.mayWrite(user) else { return .notAllowed(Self.editorsOnly) }
        return .allowed(try articles.article(id: id))
    }

    /// The body as readers will see it.
    func preview(_ markdown: String) -> String {
        Markdown.html(markdown)
    }

    /// The live preview's answer (the editor's script, as the editor types): the body as readers
    /// will see it, and what Save would say of an image from another site — the same words.
    func livePreview(_ markdown: String, by user: User) -> Permitted<(html: String, problem: String?)> {
        guard Self.mayWrite(user) else { return .notAllowed(Self.editorsOnly) }
        let body = Self.normalizedLineEnds(markdown)
        guard body.count <= Self.bodyCharacters.upperBound else {
            return .allowed(("", "The text is \(groupedDigits(body.count)) characters; at most 100,000."))
        }
        return .allowed((Markdown.html(body), Self.externalImageProblem(body)))
    }

    /// Why a body with a picture from another site is refused; nil when it has none. Readers'
    /// browsers would not load it (the pages' CSP): refused at save, not shown broken later.
    static func externalImageProblem(_ body: String) -> String? {
        guard let elsewhere = Markdown.externalImages(body).first else { return nil }
        return "The picture “\(elsewhere)” is on another site, and readers' browsers will not load it here. "
            + "Use the lead image to add a picture, or link to it instead: [a description](\(elsewhere))."
    }

    /// A new article by `author`; `unpublish` is not a way to start one.
    func create(_ submission: ArticleSubmission, action: Action, by author: User) throws -> Outcome {
        guard Self.mayWrite(author) else { return .notAllowed(Self.editorsOnly) }
        let checked = check(submission, keeping: nil, defaultAuthor: author.username)
        guard case .success(let fields) = checked else { return .invalid(checked.problems) }
        let now = clock.now()
        let record = fields.record(
            isDraft: action != .publish, publishedAt: fields.publishAt ?? now, revisedAt: nil)
        let article = try articles.insert(record, authorID: author.id, newImage: fields.newImage, now: now)
        return .saved(article, before: nil)
    }

    /// Saves the article `id` from `submission`, then does what `action` says:
    /// - `save` keeps its state (a `publish_at` moves a scheduled or published one to that time);
    /// - `publish` makes it public now, or scheduled when `publish_at` is in the future;
    /// - `unpublish` makes it a draft again: readers get 404, likes and comments are kept.
    /// An article edited while published records the time, shown as "Updated".
    func update(id: Int, _ submission: ArticleSubmission, action: Action, by editor: User) throws -> Outcome {
        guard Self.mayWrite(editor) else { return .notAllowed(Self.editorsOnly) }
        guard let current = try articles.article(id: id) else { return .noSuchArticle }
        let checked = check(submission, keeping: current.image, defaultAuthor: current.author)
        guard case .success(let fields) = checked else { return .invalid(checked.problems) }
        let now = clock.now()
        let before = current.state(at: now)
        let isDraft: Bool
        let publishedAt: Int
        switch action {
        case .save:
            isDraft = current.isDraft
            publishedAt = fields.publishAt ?? current.publishedAt
        case .publish:
            isDraft = false
            publishedAt = fields.publishAt ?? (before == .published ? current.publishedAt : now)
        case .unpublish:
            isDraft = true
            publishedAt = fields.publishAt ?? current.publishedAt
        }
        var record = fields.record(isDraft: isDraft, publishedAt: publishedAt, revisedAt: current.revisedAt)
        if before == .published, !isDraft, publishedAt <= now, fields.changesWhatReadersSee(of: current) {
            record.revisedAt = now
        }
        guard let saved = try articles.update(id: id, record, newImage: fields.newImage, now: now) else {
            return .noSuchArticle
        }
        return .saved(saved, before: before)
    }

    /// The submission's fields once every rule holds.
    private struct CheckedFields {
        var title: String
        var summary: String
        var section: String
        var author: String
        var body: String
        var bodyHTML: String
        var image: ArticleImage?
        var newImage: MediaFile?
        var publishAt: Int?
        var language: String?

        func record(isDraft: Bool, publishedAt: Int, revisedAt: Int?) -> ArticleRecord {
            ArticleRecord(
                title: title, summary: summary, author: author, sectionName: section, body: body, bodyHTML: bodyHTML,
                image: image, isDraft: isDraft, publishedAt: publishedAt, revisedAt: revisedAt, language: language)
        }

        func changesWhatReadersSee(of article: Article) -> Bool {
            title != article.title || summary != article.summary || body != article.body || author != article.author
                || image != article.image || section.lowercased() != article.section.lowercased()
        }
    }

    private enum Checked {
        case success(CheckedFields)
        case failure([ArticleSubmission.Field: String])

        var problems: [ArticleSubmission.Field: String] {
            if case .failure(let problems) = self { return problems }
            return [:]
        }
    }

    /// Every field's rule, all at once, so the editor sees every problem in one go.
    /// An empty byline shows `defaultAuthor`: the writer's username for a new article, the name
    /// already shown for an existing one.
    private func check(_ submission: ArticleSubmission, keeping currentImage: ArticleImage?, defaultAuthor: String)
        -> Checked
    {
        var problems: [ArticleSubmission.Field: String] = [:]
        let title = submission.title.singleLine
        if !Self.titleCharacters.contains(title.count) {
            problems[.title] =
                title.isEmpty ? "Give the article a title." : "The title is \(title.count) characters; at most 200."
        }
        let summary = submission.summary.singleLine
        if !Self.summaryCharacters.contains(summary.count) {
            problems[.summary] = "The summary is \(summary.count) characters; at most 500."
        }
        let section = submission.section.singleLine
        if section.count > SectionStore.maximumNameCharacters {
            problems[.section] = "A section name is at most \(SectionStore.maximumNameCharacters) characters."
        }
        let byline = submission.byline.singleLine
        if !Self.bylineCharacters.contains(byline.count) {
            problems[.byline] = "The byline is \(byline.count) characters; at most 100."
        }
        let body = Self.normalizedLineEnds(submission.body)
        let bodyLength = body.count
        if body.allSatisfy(\.isWhitespace) {
            problems[.body] = "Write the article's text."
        } else if !Self.bodyCharacters.contains(bodyLength) {
            problems[.body] = "The text is \(groupedDigits(bodyLength)) characters; at most 100,000."
        } else if let refused = Self.externalImageProblem(body) {
            problems[.body] = refused
        }
        var publishAt: Int?
        if !submission.publishAt.trimmingCharacters(in: .whitespaces).isEmpty {
            publishAt = PublishTime.parse(submission.publishAt)
            if publishAt == nil {
                problems[.publishAt] = "Write the time as 2026-12-01T09:30 (UTC), or leave it empty for now."
            }
        }
        var image = submission.removeImage ? nil : currentImage
        var newImage: MediaFile?
        if let bytes = submission.image {
            do {
                let info = try ImageInfo.recognise(bytes)
                let name = Sodium.hex(Sodium.sha256(bytes)) + "." + info.fileExtension
                newImage = MediaFile(
                    name: name, contentType: info.contentType, width: info.width, height: info.height, bytes: bytes)
                image = ArticleImage(name: name, width: info.width, height: info.height, alt: "")
            } catch {
                problems[.image] = error.description
            }
        }
        let alt = submission.imageAlt.singleLine
        if image != nil || submission.image != nil {
            if alt.isEmpty {
                problems[.imageAlt] = "Describe the image for readers who cannot see it."
            } else if !Self.altCharacters.contains(alt.count) {
                problems[.imageAlt] = "The description is \(alt.count) characters; at most 300."
            }
        }
        image?.alt = alt
        // The article's own language: the site's (nil), one the select names, or a typed BCP 47 tag.
        var language: String?
        switch submission.language {
        case "": language = nil
        case "other":
            language = LanguageTag.validated(submission.languageOther)
            if language == nil {
                problems[.languageOther] =
                    "Write a language tag such as en, zh-Hant, zh-TW or fr-CA, or choose one above."
            }
        case let tag where ArticleSubmission.languageChoices.contains(tag): language = tag
        default: problems[.language] = "Choose a language from the list."
        }
        guard problems.isEmpty else { return .failure(problems) }
        return .success(
            CheckedFields(
                title: title, summary: summary, section: section, author: byline.isEmpty ? defaultAuthor : byline,
                body: body, bodyHTML: Markdown.html(body), image: image, newImage: newImage, publishAt: publishAt,
                language: language))
    }

    /// CRLF and lone CR (what browsers send for line breaks in a textarea) as LF.
    static func normalizedLineEnds(_ text: String) -> String {
        guard text.utf8.contains(13) else { return text }
        return text.replacingOccurrences(of: "\r\n", with: "\n").replacingOccurrences(of: "\r", with: "\n")
    }
}
