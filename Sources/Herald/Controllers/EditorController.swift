import HTTP
import Mustache
import TextSupport

/// The newsroom desk (`/editor`): the list of every article, and the form to write, preview,
/// schedule, publish and unpublish one. Every route needs the `editor` role. Both POSTs are
/// resumable: a save made after the session expired is parked with its text and image, performed
/// after login, and lands on the edit page with "Saved".
struct EditorController: Sendable {
    /// An article form: up to 100,000 characters (4 bytes each at most), a 5 MB image, the rest.
    static let maximumBodyBytes = 6 << 20

    let newsroom: Newsroom
    let media: MediaLibrary
    let views: Views

    /// Writing and saving articles: resumable (a save made after the session expired is parked
    /// with its text and image, and performed after login).
    var resumableActions: [AnyResumableAction] {
        [.init(createAction), .init(saveAction), .init(insertImageAction)]
    }

    func addRoutes(to router: inout Router<RequestContext>) {
        router.group("/editor", requires: RouteGuards.editors) { editor in
            editor.get("") { request, context in try desk(request, context) }
            editor.get("/articles/new") { request, context in try newArticle(request, context) }
            editor.get("/articles/:id") { request, context in try edit(request, context) }
            editor.post("/preview") { request, context in try livePreview(request, context) }
        }
    }

    /// The live preview's JSON: the body rendered as readers will see it, and what Save would
    /// refuse in it (an image from another site), in Save's words.
    struct LivePreviewAnswer: Encodable {
        let html: String
        let error: String?
    }

    /// POST `/editor/preview` (field `body`), asked by the editor's script as the editor types.
    /// Changes nothing; the Preview button does the same without a script.
    func livePreview(_ request: Request, _ context: RequestContext) throws -> Response {
        let body = try request.form()["body"] ?? ""
        switch newsroom.livePreview(body, by: try context.signedIn()) {
        case .allowed(let answer): return .json(LivePreviewAnswer(html: answer.html, error: answer.problem))
        case .notAllowed(let reason): throw HTTPError(.forbidden, reason)
        }
    }

    /// An article form as sent: the article it saves (nil: a new one), its fields, and the button.
    struct ArticleForm: ResumableInput {
        static let keptFields = ArticleSubmission.textFields.map(\.rawValue)
        static let keptFile: String? = ArticleSubmission.Field.image.rawValue
        let id: Int?
        let submission: ArticleSubmission
        /// Nil: a button we do not know — or Preview, which is no action of the newsroom's.
        let button: Newsroom.Action?
        /// The Preview button: the form again with the text as readers will see it; nothing is
        /// saved, whoever performs it (a live click, or the same click resumed after login).
        let wantsPreview: Bool

        init(_ form: KeptForm) throws(HTTPError) {
            id = form.parameters["id"] == nil ? nil : try form.require("id", as: Int.self, notFound: noSuchArticle)
            submission = ArticleSubmission(field: { form[$0.rawValue] }, image: form.file)
            let pressed = form[ArticleSubmission.Field.action.rawValue]
            wantsPreview = pressed == Self.preview
            button = wantsPreview ? nil : Newsroom.Action(rawValue: pressed ?? Newsroom.Action.save.rawValue)
        }

        /// The Preview button's value.
        static let preview = "preview"
    }

    static let editorsOnly = RoleRequirement(role: .editor, refusal: Newsroom.editorsOnly)

    var createAction: ResumableAction<ArticleForm> {
        ResumableAction(
            name: .createArticle, path: EditorPaths.articles, maxBodyBytes: Self.maximumBodyBytes,
            role: Self.editorsOnly,
            describe: { input, messages in
                let title = Self.shortTitle(input.submission.title)
                let key = input.wantsPreview ? "action_preview_new_article" : "action_create_article"
                return title.isEmpty ? messages[key + "_untitled"] : messages.format(key, ["title": title])
            },
            returnPath: { _ in "/editor/articles/new" },
            perform: { input, user, context, _ in try create(input, by: user, &context) },
            typedText: Self.typedText, formAgain: formAgain)
    }

    /// Its description names no article: an anonymous browser must learn nothing of drafts, nor
    /// which ids exist (SPEC third wave).
    var saveAction: ResumableAction<ArticleForm> {
        ResumableAction(
            name: .saveArticle, path: EditorPaths.articles + "/:id", maxBodyBytes: Self.maximumBodyBytes,
            role: Self.editorsOnly,
            describe: { input, messages in
                messages[input.wantsPreview ? "action_preview_article" : "action_save_article"]
            },
            returnPath: { input in input.id.map(EditorPaths.article) ?? "/editor" },
            perform: { input, user, context, _ in try save(input, by: user, &context) },
            typedText: Self.typedText, formAgain: formAgain)
    }

    static let noSuchArticle = HTTPError(.notFound, "There is no article with that number.")

    /// What an editor typed, for when a save is not performed.
    static let typedText: [(field: String, label: String)] = [
        ("title", "Title"), ("summary", "Summary"), ("body", "Text"),
    ]

    private static func shortTitle(_ title: String) -> String {
        let line = title.singleLine
        return line.count > 60 ? String(line.prefix(59)) + "…" : line
    }

    // MARK: Pages

    func desk(_ request: Request, _ context: RequestContext) throws -> Response {
        let number = try ArticlesController.pageNumber(request.query["page"])
        let filter = try Self.deskFilter(request)
        let editor = try context.signedIn()
        let (articles, hasOlder) = try Self.allowed(newsroom.desk(page: number, filter: filter, by: editor))
        if articles.isEmpty && number > 1 {
            throw HTTPError(.notFound, "There is no page \(number) of the desk.")
        }
        let page = DeskPage(
            entries: articles, page: number, hasOlder: hasOlder, now: newsroom.now, filter: filter,
            choices: try Self.allowed(newsroom.deskChoices(by: editor)), query: request.query["q"] ?? "")
        return try views.page(page, title: "Newsroom", context: context)
    }

    /// `?state=draft|scheduled|published&section=SLUG&author=NAME&q=WORDS`; empty means any. A
    /// state that does not exist or a query over 200 characters is 400.
    static func deskFilter(_ request: Request) throws(HTTPError) -> DeskFilter {
        func value(_ name: String) -> String? {
            guard let raw = request.query[name] else { return nil }
            let text = String(raw[...].trimmingASCIIWhitespace())
            return text.isEmpty ? nil : text
        }
        var filter = DeskFilter(section: value("section"), author: value("author"))
        if let state = value("state") {
            guard let known = ArticleState(rawValue: state) else {
                throw HTTPError(
                    .badRequest, "The desk can show drafts, scheduled or published articles, not “\(state)”.")
            }
            filter.state = known
        }
        if let query = value("q") {
            guard query.count <= DeskFilter.maximumQueryCharacters else {
                throw HTTPError(
                    .badRequest, "A search of the desk may be \(DeskFilter.maximumQueryCharacters) characters long.")
            }
            filter.words = DeskFilter.words(of: query)
        }
        return filter
    }

    func newArticle(_ request: Request, _ context: RequestContext) throws -> Response {
        try form(ArticleSubmission(), article: nil, context: context)
    }

    func edit(_ request: Request, _ context: RequestContext) throws -> Response {
        let id = try request.require("id", as: Int.self, notFound: Self.noSuchArticle)
        guard let article = try Self.allowed(newsroom.article(id: id, by: context.signedIn())) else {
            throw Self.noSuchArticle
        }
        return try form(ArticleSubmission(article), article: article, context: context)
    }

    /// A service's answer for an editor's page: its value, or 403 with the service's reason.
    static func allowed<Value>(_ answer: Permitted<Value>) throws -> Value {
        switch answer {
        case .allowed(let value): return value
        case .notAllowed(let reason): throw HTTPError(.forbidden, reason)
        }
    }

    // MARK: Actions

    func create(_ input: ArticleForm, by editor: User, _ context: inout RequestContext) throws -> Response {
        if input.wantsPreview {
            return try form(input.submission, article: nil, context: context, previewing: true)
        }
        guard let action = input.button, action != .unpublish else {
            return try form(
                input.submission, article: nil, context: context,
                errors: [.action: "A new article can be saved as a draft or published."], status: .unprocessableContent)
        }
        return try answer(
            newsroom.create(input.submission, action: action, by: editor), input.submission, nil, &context)
    }

    func save(_ input: ArticleForm, by editor: User, _ context: inout RequestContext) throws -> Response {
        guard let id = input.id, let current = try Self.allowed(newsroom.article(id: id, by: editor)) else {
            throw Self.noSuchArticle
        }
        if input.wantsPreview {
            return try form(input.submission, article: current, context: context, previewing: true)
        }
        guard let action = input.button else {
            return try form(
                input.submission, article: current, context: context,
                errors: [.action: "Choose Preview, Save, Publish or Unpublish."], status: .unprocessableContent)
        }
        return try answer(
            newsroom.update(id: id, input.submission, action: action, by: editor), input.submission, current, &context)
    }

    private func answer(
        _ outcome: Newsroom.Outcome, _ submission: ArticleSubmission, _ current: Article?,
        _ context: inout RequestContext
    ) throws -> Response {
        switch outcome {
        case .saved(let article, let before):
            context.nextFlash = Self.flash(for: article, before: before, now: newsroom.now, context.messages)
            return .redirect(to: EditorPaths.article(article.id))
        case .invalid(let problems):
            return try form(
                submission, article: current, context: context, errors: problems, status: .unprocessableContent)
        case .noSuchArticle:
            throw Self.noSuchArticle
        case .notAllowed(let reason):
            throw HTTPError(.forbidden, reason)
        }
    }

    private static func flash(for article: Article, before: ArticleState?, now: Int, _ messages: Messages) -> String {
        let title = article.title
        switch (before, article.state(at: now)) {
        case (.published, .draft), (.scheduled, .draft):
            return messages.format("flash_unpublished", ["title": title])
        case (_, .draft):
            return messages.format("flash_saved_draft", ["title": title])
        case (.published, .published):
            return messages["flash_saved_published"]
        case (_, .published):
            return messages.format("flash_published", ["title": title])
        case (_, .scheduled):
            return messages.format(
                "flash_scheduled",
                [
                    "title": title, "day": DateText.long(article.publishedAt, in: messages.language),
                    "time": DateText.timeOfDay(article.publishedAt),
                ])
        }
    }

    // MARK: Rendering

    /// The form; `previewing`: what was typed, unsaved, with its preview first.
    func form(
        _ submission: ArticleSubmission, article: Article?, context: RequestContext,
        errors: [ArticleSubmission.Field: String] = [:], status: HTTPStatus = .ok, formAction: String? = nil,
        previewing: Bool = false, insertAlt: String = ""
    ) throws -> Response {
        let preview =
            errors.isEmpty && !previewing
            ? (article?.bodyHTML ?? newsroom.preview(submission.body)) : newsroom.preview(submission.body)
        let page = ArticleFormPage(
            submission: submission, article: article, errors: errors,
            formAction: formAction ?? article.map { EditorPaths.article($0.id) } ?? EditorPaths.articles,
            previewHTML: preview, now: newsroom.now, previewing: previewing, insertAlt: insertAlt)
        let title = article.map { "Edit “\($0.title)”" } ?? "New article"
        return try views.page(page, title: title, context: context, status: status)
    }

    /// An article form that was not saved, with everything typed put back. Not kept while the
    /// reader logs in (422): the form alone, nothing of the stored article shown to a browser that
    /// is not logged in. Waited too long: the form again for an editor to save; anyone else gets
    /// the text to copy.
    private func formAgain(_ input: ArticleForm, _ why: FormAgain, _ context: inout RequestContext) throws -> Response {
        var shown = context
        let chooseAgain =
            input.submission.image != nil ? " Browsers do not keep a chosen file, so choose the image again." : ""
        switch why {
        case .notKept:
            shown.flash =
                "Your article is too large to keep while you log in, so it is not saved. Log in in another tab, then "
                + "save it from here." + chooseAgain
            return try form(
                input.submission, article: nil, context: shown, status: .unprocessableContent,
                formAction: input.id.map(EditorPaths.article) ?? "/editor/articles")
        case .waitedTooLong, .retypePassword:
            guard let editor = context.user, Newsroom.mayWrite(editor) else {
                return views.returnedText(
                    Self.editorsOnly.refusal + " Nothing was saved; here is what you wrote, to copy.",
                    status: .forbidden, title: "Not saved",
                    texts: Self.typedText.map { ($0.label, $0.field, Self.text(of: $0.field, in: input.submission)) },
                    context: context)
            }
            shown.flash =
                "Your article has not been saved yet — it waited too long while you logged in. Here it is: press Save again."
                + chooseAgain
            let current = try input.id.flatMap { id in try Self.allowed(newsroom.article(id: id, by: editor)) }
            return try form(input.submission, article: current, context: shown)
        }
    }

    private static func text(of field: String, in submission: ArticleSubmission) -> String {
        switch ArticleSubmission.Field(rawValue: field) {
        case .title: submission.title
        case .summary: submission.summary
        case .body: submission.body
        default: ""
        }
    }
}
