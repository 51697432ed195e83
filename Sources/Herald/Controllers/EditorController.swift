import HTTP
import Mustache

/// The newsroom desk (`/editor`): the list of every article, and the form to write, preview,
/// schedule, publish and unpublish one. Every route needs the `editor` role. Both POSTs are
/// resumable: a save made after the session expired is parked with its text and image, performed
/// after login, and lands on the edit page with "Saved".
struct EditorController: Sendable {
    /// An article form: up to 100,000 characters (4 bytes each at most), a 5 MB image, the rest.
    static let maximumBodyBytes = 6 << 20

    let newsroom: Newsroom
    let views: Views

    var createAction: ResumableAction {
        ResumableAction(
            .createArticle, keeping: ArticleSubmission.textFields.map(\.rawValue),
            describe: { request in
                let title = Self.titleForDescription(request)
                return title.isEmpty ? "save your new article" : "save your new article “\(title)”"
            },
            returnPath: { _ in "/editor/articles/new" }, keepingFile: ArticleSubmission.Field.image.rawValue,
            refused: showBack, typedText: Self.typedText, putBack: putBack
        ) { request, context in try create(request, &context) }
    }

    var saveAction: ResumableAction {
        ResumableAction(
            .saveArticle, keeping: ArticleSubmission.textFields.map(\.rawValue),
            describe: { request in
                guard let article = try newsroom.article(id: Self.articleID(request)) else {
                    throw Self.noSuchArticle
                }
                return "save your changes to “\(article.title)”"
            },
            returnPath: { request in Self.editPath(Self.articleID(request)) },
            keepingFile: ArticleSubmission.Field.image.rawValue, refused: showBack, typedText: Self.typedText,
            putBack: putBack
        ) { request, context in try save(request, &context) }
    }

    func addRoutes(to router: inout Router<RequestContext>, intents: PendingActions) {
        router.get("/editor") { request, context in try desk(request, context) }
        router.get("/editor/articles/new") { request, context in try newArticle(request, context) }
        router.post("/editor/articles", maxBodyBytes: Self.maximumBodyBytes, intents.route(createAction))
        router.get("/editor/articles/:id") { request, context in try edit(request, context) }
        router.post("/editor/articles/:id", maxBodyBytes: Self.maximumBodyBytes, intents.route(saveAction))
    }

    static let noSuchArticle = HTTPError(.notFound, "There is no article with that number.")

    /// What an editor typed, for when a save is not performed.
    static let typedText: [(field: String, label: String)] = [
        ("title", "Title"), ("summary", "Summary"), ("body", "Text"),
    ]

    static func editPath(_ id: Int) -> String { "/editor/articles/\(id)" }

    private static func articleID(_ request: Request) -> Int {
        request.parameters["id"].flatMap { Int($0) } ?? 0
    }

    private static func titleForDescription(_ request: Request) -> String {
        let title = SectionStore.singleLine((try? request.form()["title"]) ?? "")
        return title.count > 60 ? String(title.prefix(59)) + "…" : title
    }

    // MARK: Pages

    func desk(_ request: Request, _ context: RequestContext) throws -> Response {
        if let redirect = try Self.loginFirst(request, context) { return redirect }
        let number = try ArticlesController.pageNumber(request.query["page"])
        let (articles, hasOlder) = try newsroom.desk(page: number)
        if articles.isEmpty && number > 1 {
            throw HTTPError(.notFound, "There is no page \(number) of the desk.")
        }
        let now = newsroom.now
        let model: [String: MustacheValue] = [
            "articles": .list(articles.map { .object(DeskRowView(entry: $0, now: now)) }),
            "has_articles": .bool(!articles.isEmpty),
            "newer_url": number > 1 ? .string(number == 2 ? "/editor" : "/editor?page=\(number - 1)") : .null,
            "older_url": hasOlder ? .string("/editor?page=\(number + 1)") : .null,
        ]
        return try views.page("editor-desk", title: "Newsroom", model: model, context: context)
    }

    func newArticle(_ request: Request, _ context: RequestContext) throws -> Response {
        if let redirect = try Self.loginFirst(request, context) { return redirect }
        return try form(ArticleSubmission(), article: nil, context: context)
    }

    func edit(_ request: Request, _ context: RequestContext) throws -> Response {
        if let redirect = try Self.loginFirst(request, context) { return redirect }
        guard let article = try newsroom.article(id: Self.articleID(request)) else { throw Self.noSuchArticle }
        return try form(ArticleSubmission(article), article: article, context: context)
    }

    /// The way to the login page for someone logged out; nil for an editor; 403 for anyone else.
    private static func loginFirst(_ request: Request, _ context: RequestContext) throws -> Response? {
        switch try PageAccess.check(request, context, role: .editor) {
        case .allowed: nil
        case .loginFirst(let redirect): redirect
        }
    }

    // MARK: Actions

    func create(_ request: Request, _ context: inout RequestContext) throws -> Response {
        let editor = try Self.editor(context)
        let (submission, action) = try Self.submission(from: request)
        guard let action, action != .unpublish else {
            return try form(
                submission, article: nil, context: context,
                errors: [.action: "A new article can be saved as a draft or published."], status: .unprocessableContent)
        }
        return try answer(newsroom.create(submission, action: action, by: editor), submission, nil, &context)
    }

    func save(_ request: Request, _ context: inout RequestContext) throws -> Response {
        _ = try Self.editor(context)
        let id = Self.articleID(request)
        guard let current = try newsroom.article(id: id) else { throw Self.noSuchArticle }
        let (submission, action) = try Self.submission(from: request)
        guard let action else {
            return try form(
                submission, article: current, context: context,
                errors: [.action: "Choose Save, Publish or Unpublish."], status: .unprocessableContent)
        }
        return try answer(newsroom.update(id: id, submission, action: action), submission, current, &context)
    }

    private func answer(
        _ outcome: Newsroom.Outcome, _ submission: ArticleSubmission, _ current: Article?,
        _ context: inout RequestContext
    ) throws -> Response {
        switch outcome {
        case .saved(let article, let before):
            context.nextFlash = Self.flash(for: article, before: before, now: newsroom.now)
            return .redirect(to: Self.editPath(article.id))
        case .invalid(let problems):
            return try form(
                submission, article: current, context: context, errors: problems, status: .unprocessableContent)
        case .noSuchArticle:
            throw Self.noSuchArticle
        }
    }

    private static func flash(for article: Article, before: ArticleState?, now: Int) -> String {
        switch (before, article.state(at: now)) {
        case (.published, .draft), (.scheduled, .draft):
            return "Unpublished: “\(article.title)” is a draft again, hidden from readers."
        case (_, .draft):
            return "Saved. “\(article.title)” is a draft: only editors can see it."
        case (.published, .published):
            return "Saved. The published article shows your changes."
        case (_, .published):
            return "Published: “\(article.title)” is on the front page."
        case (_, .scheduled):
            return "Scheduled: “\(article.title)” will be published on \(DateText.long(article.publishedAt)) at "
                + "\(DateText.timeOfDay(article.publishedAt)) UTC."
        }
    }

    /// Only editors write; a resumed save by an account that is not one is refused with its text.
    private static func editor(_ context: RequestContext) throws -> User {
        guard let user = context.user else { throw HTTPError(.forbidden, "Please log in first.") }
        guard user.roles.grants(.editor) else {
            throw HTTPError(.forbidden, "Only the site's editors can write articles. Your account is not one.")
        }
        return user
    }

    /// The form's fields and the button pressed (nil: one we do not know).
    private static func submission(from request: Request) throws -> (ArticleSubmission, Newsroom.Action?) {
        let fields = try request.form()
        var submission = ArticleSubmission()
        submission.title = fields["title"] ?? ""
        submission.summary = fields["summary"] ?? ""
        submission.section = fields["section"] ?? ""
        submission.byline = fields["byline"] ?? ""
        submission.body = fields["body"] ?? ""
        submission.imageAlt = fields["image_alt"] ?? ""
        submission.publishAt = fields["publish_at"] ?? ""
        submission.removeImage = fields["remove_image"] != nil
        submission.image = try request.files().first { $0.name == ArticleSubmission.Field.image.rawValue }?.bytes
        let action = Newsroom.Action(rawValue: fields["action"] ?? Newsroom.Action.save.rawValue)
        return (submission, action)
    }

    // MARK: Rendering

    private func form(
        _ submission: ArticleSubmission, article: Article?, context: RequestContext,
        errors: [ArticleSubmission.Field: String] = [:], status: HTTPStatus = .ok
    ) throws -> Response {
        let now = newsroom.now
        var model: [String: MustacheValue] = [
            "form_action": .string(article.map { Self.editPath($0.id) } ?? "/editor/articles"),
            "is_new": .bool(article == nil),
            "title": .string(submission.title),
            "summary": .string(submission.summary),
            "section": .string(submission.section),
            "byline": .string(submission.byline),
            "body": .string(submission.body),
            "image_alt": .string(submission.imageAlt),
            "publish_at": .string(submission.publishAt),
            "has_errors": .bool(!errors.isEmpty),
            // The saved text, as readers will see it (on a refused save: what was typed).
            "preview_html": .string(
                errors.isEmpty
                    ? (article?.bodyHTML ?? newsroom.preview(submission.body)) : newsroom.preview(submission.body)),
            "has_preview": .bool(!submission.body.isEmpty),
        ]
        if submission.image != nil && errors[.image] == nil && !errors.isEmpty {
            model["image_again"] = .bool(true)
        }
        for (field, message) in errors { model["\(field.rawValue)_error"] = .string(message) }
        if let article {
            let state = article.state(at: now)
            model["state"] = .string(state.rawValue)
            model["state_text"] = .string(Self.stateText(article, state))
            model["public_url"] = .string(ArticlePaths.article(article.slug))
            model["can_unpublish"] = .bool(state != .draft)
            model["is_published"] = .bool(state == .published)
            if let image = article.image {
                model["image"] = [
                    "src": .string(MediaPaths.media(image.name)), "width": .int(image.width),
                    "height": .int(image.height), "alt": .string(image.alt),
                ]
            }
        }
        let title = article.map { "Edit “\($0.title)”" } ?? "New article"
        return try views.page("editor-article", title: title, model: model, context: context, status: status)
    }

    private static func stateText(_ article: Article, _ state: ArticleState) -> String {
        switch state {
        case .draft: "Draft: only editors can see it."
        case .scheduled:
            "Scheduled: it will be published on \(DateText.long(article.publishedAt)) at \(DateText.timeOfDay(article.publishedAt)) UTC."
        case .published: "Published on \(DateText.long(article.publishedAt))."
        }
    }

    /// A save whose intent waited too long: the form again with everything typed, not saved. An
    /// account that is not an editor gets the text to copy instead.
    private func putBack(_ replay: Request, _ context: RequestContext) throws -> Response {
        let (submission, _) = try Self.submission(from: replay)
        do {
            _ = try Self.editor(context)
        } catch let error as HTTPError {
            return showBack(error, replay, context)
        }
        var shown = context
        shown.flash =
            "Your article has not been saved yet — it waited too long while you logged in. Here it is: press Save again."
            + (submission.image != nil ? " Browsers do not keep a chosen file, so choose the image again." : "")
        let current = try replay.parameters["id"] == nil ? nil : newsroom.article(id: Self.articleID(replay))
        return try form(submission, article: current, context: shown)
    }

    /// After login, a save the account may not make: 403, with what was typed shown back so it can
    /// be copied (SPEC: text is never silently dropped).
    private func showBack(_ error: HTTPError, _ replay: Request, _ context: RequestContext) -> Response {
        guard let (submission, _) = try? Self.submission(from: replay) else {
            return views.errorPage(error, context: context)
        }
        return views.returnedText(
            error.message + " Nothing was saved; here is what you wrote, to copy.", status: error.status,
            title: "Not saved",
            texts: [
                ("Title", "title", submission.title), ("Summary", "summary", submission.summary),
                ("Text", "body", submission.body),
            ], context: context)
    }
}

/// One row of the desk. Its state and dates are worked out once: the template reads the state
/// three times, and every value is read on each of fifty rows.
struct DeskRowView: MustacheObject {
    let entry: ArticleStore.DeskEntry
    let state: MustacheValue
    let changedISO: MustacheValue
    let changedText: MustacheValue

    init(entry: ArticleStore.DeskEntry, now: Int) {
        self.entry = entry
        state = .string(entry.state(at: now).rawValue)
        changedISO = .string(DateText.rfc3339(entry.updatedAt))
        changedText = .string(DateText.dayAndTime(entry.updatedAt))
    }

    func value(forKey key: String) -> MustacheValue? {
        switch key {
        case "id": .int(entry.id)
        case "title": .string(entry.title)
        case "edit_url": .string(EditorController.editPath(entry.id))
        case "state": state
        case "section": entry.section.isEmpty ? .null : .string(entry.section)
        case "author": .string(entry.author)
        case "changed_iso": changedISO
        case "changed_text": changedText
        default: nil
        }
    }
}
