import HTTP
import Mustache

/// `editor-desk.mustache`: every article, most recently changed first, or those its filters keep
/// (state, section, author, words of the title); the pages' links keep the filters.
struct DeskPage: PageModel {
    let template = PageTemplate.editorDesk
    let rows: [DeskRowView]
    let pager: Pager
    let filter: DeskFilter
    let choices: DeskChoices
    /// The search as typed.
    let query: String

    init(
        entries: [ArticleStore.DeskEntry], page: Int, hasOlder: Bool, now: Int, filter: DeskFilter = DeskFilter(),
        choices: DeskChoices = DeskChoices(sections: [], authors: []), query: String = ""
    ) {
        rows = entries.map { DeskRowView(entry: $0, now: now) }
        self.filter = filter
        self.choices = choices
        self.query = query
        pager = Pager(base: Self.base(filter, query: query), page: page, hasOlder: hasOlder)
    }

    /// `/editor` with the filters in its query, in a fixed order.
    static func base(_ filter: DeskFilter, query: String) -> String {
        let pairs: [(String, String?)] = [
            ("state", filter.state?.rawValue), ("section", filter.section), ("author", filter.author),
            ("q", filter.words.isEmpty ? nil : query),
        ]
        let parts = pairs.compactMap { name, value in value.map { name + "=" + PercentEncoding.encode($0) } }
        return parts.isEmpty ? EditorPaths.desk : EditorPaths.desk + "?" + parts.joined(separator: "&")
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "articles": .list(rows.map { .object($0) })
        case "has_articles": .bool(!rows.isEmpty)
        case "is_filtered": .bool(!filter.isEmpty)
        case "query": .string(query)
        case "state_choices":
            .list(
                [ArticleState.draft, .scheduled, .published].map { state in
                    [
                        "value": .string(state.rawValue),
                        "label": .string(Messages.rendering["state_" + state.rawValue]),
                        "selected": .bool(filter.state == state),
                    ]
                })
        case "section_choices":
            .list(
                choices.sections.map { section in
                    [
                        "value": .string(section.slug), "label": .string(section.name),
                        "selected": .bool(filter.section == section.slug),
                    ]
                })
        case "author_choices":
            .list(
                choices.authors.map { author in
                    ["value": .string(author), "label": .string(author), "selected": .bool(filter.author == author)]
                })
        default: pager.value(forKey: key)
        }
    }
}

/// One row of the desk. Its state and dates are worked out once: the template reads the state
/// three times, and every value is read on each of fifty rows.
struct DeskRowView: MustacheObject {
    let entry: ArticleStore.DeskEntry
    let state: MustacheValue
    let changedISO: MustacheValue
    /// The day and the time apart: on a phone the cell wraps between them, never inside them.
    let changedDay: MustacheValue
    let changedClock: MustacheValue

    init(entry: ArticleStore.DeskEntry, now: Int) {
        self.entry = entry
        state = .string(entry.state(at: now).rawValue)
        changedISO = .string(DateText.rfc3339(entry.updatedAt))
        changedDay = .string(DateText.long(entry.updatedAt))
        changedClock = .string(DateText.timeOfDay(entry.updatedAt))
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "id": .int(entry.id)
        case "title": .string(entry.title)
        case "edit_url": .string(EditorPaths.article(entry.id))
        case "state": state
        case "section": entry.section.isEmpty ? .null : .string(entry.section)
        case "author": .string(entry.author)
        case "changed_iso": changedISO
        case "changed_day": changedDay
        case "changed_clock": changedClock
        default: nil
        }
    }
}

/// Where the newsroom's pages are: shared by the route table's actions and the views.
enum EditorPaths {
    static let desk = "/editor"
    static let newArticle = "/editor/articles/new"
    static let articles = "/editor/articles"
    static func article(_ id: Int) -> String { "/editor/articles/\(id)" }
    /// The live preview the editor's script asks for (JSON).
    static let preview = "/editor/preview"
    /// "Insert image" (the article form's second submit target).
    static let insertImage = "/editor/images"
}

/// `editor-article.mustache`: the article form, filled in, with its errors, its state and a
/// preview of the body.
struct ArticleFormPage: PageModel {
    let template = PageTemplate.editorArticle
    let submission: ArticleSubmission
    /// The stored article, when it exists and may be shown (never to a browser not logged in).
    let article: Article?
    let errors: [ArticleSubmission.Field: String]
    /// Where the form posts.
    let formAction: String
    /// The body as readers will see it: the saved text, or on a refused save or a preview what
    /// was typed.
    let previewHTML: String
    let now: Int
    /// Shown after the Preview button: nothing was saved, and the preview comes first.
    var previewing = false
    /// The description typed for an image to insert, put back when the insert was refused.
    var insertAlt = ""

    func value(forKey key: String) -> MustacheValue? {
        if key.hasSuffix("_error"), let field = ArticleSubmission.Field(rawValue: String(key.dropLast(6))) {
            return errors[field].map { .string(Messages.rendering.translated($0)) }
        }
        switch key {
        case "form_action": return .string(formAction)
        case "live_preview_url": return .string(EditorPaths.preview)
        case "insert_image_url": return .string(EditorPaths.insertImage)
        case "insert_alt": return .string(insertAlt)
        case "article_id": return article.map { .int($0.id) } ?? .null
        case "is_new": return .bool(formAction == EditorPaths.articles)
        case "title": return .string(submission.title)
        case "summary": return .string(submission.summary)
        case "section": return .string(submission.section)
        case "byline": return .string(submission.byline)
        case "body": return .string(submission.body)
        case "image_alt": return .string(submission.imageAlt)
        case "publish_at": return .string(submission.publishAt)
        case "language_choices": return languageChoices
        case "language_other": return .string(submission.languageOther)
        case "language_is_other": return .bool(submission.language == "other")
        case "has_errors": return .bool(!errors.isEmpty)
        case "preview_html": return .string(previewHTML)
        case "has_preview": return .bool(!submission.body.isEmpty)
        case "is_previewing": return .bool(previewing)
        case "image_again":
            return .bool(submission.image != nil && errors[.image] == nil && (!errors.isEmpty || previewing))
        default: break
        }
        guard let article else { return nil }
        let state = article.state(at: now)
        switch key {
        case "state": return .string(state.rawValue)
        case "state_text": return .string(Self.stateText(article, state))
        case "public_url": return .string(ArticlePaths.article(article.slug))
        case "can_unpublish": return .bool(state != .draft)
        case "is_published": return .bool(state == .published)
        case "image":
            return article.image.map { image in
                [
                    "src": .string(MediaPaths.media(image.name)), "width": .int(image.width),
                    "height": .int(image.height), "alt": .string(image.alt),
                ]
            } ?? .null
        default: return nil
        }
    }

    /// The select's options: the site's language, then each interface language named in itself,
    /// then "another" (with the tag typed beside it); the submitted one selected.
    private var languageChoices: MustacheValue {
        let names =
            [("", Messages.rendering["language_same_as_site"])]
            + ArticleSubmission.languageChoices.map { tag in
                (tag, InterfaceLanguage(rawValue: tag)?.ownName ?? tag)
            } + [("other", Messages.rendering["language_other"])]
        return .list(
            names.map { value, label in
                [
                    "value": .string(value), "label": .string(label),
                    "selected": .bool(submission.language == value),
                    "lang": InterfaceLanguage(rawValue: value).map { .string($0.rawValue) } ?? .null,
                ]
            })
    }

    private static func stateText(_ article: Article, _ state: ArticleState) -> String {
        switch state {
        case .draft: Messages.rendering["editor_state_draft"]
        case .scheduled:
            Messages.rendering.format(
                "editor_state_scheduled",
                ["day": DateText.long(article.publishedAt), "time": DateText.timeOfDay(article.publishedAt)])
        case .published:
            Messages.rendering.format("editor_state_published", ["day": DateText.long(article.publishedAt)])
        }
    }
}
