import HTTP
import TextSupport

/// The editor's "Insert image": the whole article form is posted with a picture for the text
/// (its button's `formaction`, so it works without a script). The picture is stored in the media
/// library and `![description](/media/…)` goes into the text at the cursor (sent by the script)
/// or at the end; the form comes back with everything typed and nothing saved. With the script,
/// the same POST asked for JSON answers the Markdown alone, for the script to put at the cursor.
/// Resumable like a save: a session that ended meanwhile parks the form, text and picture.
extension EditorController {
    /// The article form as sent to "Insert image": the article's fields, and the picture's.
    struct ImageInsertForm: ResumableInput {
        static let keptFields =
            ArticleSubmission.textFields.map(\.rawValue) + ["article", "insert_alt", "insert_at"]
        static let keptFile: String? = ArticleSubmission.Field.insertImage.rawValue
        /// The article being edited (the form's hidden `article`); nil for a new one.
        let articleID: Int?
        /// Everything else typed, put back as it was (the lead image's file is not kept: browsers
        /// make the reader choose it again).
        let submission: ArticleSubmission
        let picture: [UInt8]?
        let alt: String
        /// `textarea.selectionStart`, when the script sent it.
        let cursor: Int?

        init(_ form: KeptForm) throws(HTTPError) {
            let article = form.text("article")
            articleID = article.isEmpty ? nil : try Self.id(article)
            submission = ArticleSubmission(field: { form[$0.rawValue] }, image: nil)
            picture = form.file.flatMap { $0.isEmpty ? nil : $0 }
            alt = form.text("insert_alt").singleLine
            cursor = Int(form.text("insert_at"))
        }

        private static func id(_ text: String) throws(HTTPError) -> Int {
            guard let id = Int(text), id > 0 else { throw noSuchArticle }
            return id
        }
    }

    var insertImageAction: ResumableAction<ImageInsertForm> {
        ResumableAction(
            name: .insertImage, path: EditorPaths.insertImage, maxBodyBytes: Self.maximumBodyBytes,
            role: Self.editorsOnly,
            describe: { input, messages in
                input.alt.isEmpty
                    ? messages["action_insert_image"]
                    : messages.format("action_insert_named_image", ["alt": String(input.alt.prefix(80))])
            },
            returnPath: { input in input.articleID.map(EditorPaths.article) ?? EditorPaths.newArticle },
            perform: { input, user, context, reply in try insertImage(input, by: user, &context, reply) },
            typedText: Self.typedText,
            formAgain: { input, _, context in
                var shown = context
                shown.flash = context.text("flash_image_not_inserted_yet")
                return try form(
                    input.submission, article: nil, context: shown,
                    formAction: input.articleID.map(EditorPaths.article) ?? EditorPaths.articles)
            })
    }

    static let describeImage = "Describe the image for readers who cannot see it."
    static let chooseImage = "Choose an image to insert: JPEG, PNG or WebP, at most 5 MB."

    func insertImage(_ input: ImageInsertForm, by editor: User, _ context: inout RequestContext, _ reply: Reply)
        throws -> Response
    {
        let current = try input.articleID.map { id in
            guard let article = try Self.allowed(newsroom.article(id: id, by: editor)) else { throw Self.noSuchArticle }
            return article
        }
        var refusal: (ArticleSubmission.Field, String)?
        var inserted: String?
        if input.picture == nil {
            refusal = (.insertImage, Self.chooseImage)
        } else if input.alt.isEmpty {
            refusal = (.insertAlt, Self.describeImage)
        } else if input.alt.count > 300 {
            refusal = (.insertAlt, "The description is \(input.alt.count) characters; at most 300.")
        } else if let picture = input.picture {
            switch try media.storeBodyImage(picture, by: editor) {
            case .stored(let path): inserted = BodyImageInsertion.markdown(alt: input.alt, path: path)
            case .refused(let why): refusal = (.insertImage, why)
            case .notAllowed(let reason): throw HTTPError(.forbidden, reason)
            }
        }
        if reply == .json {
            if let refusal { throw HTTPError(.unprocessableContent, refusal.1) }
            return .json(["markdown": inserted ?? ""])
        }
        var submission = input.submission
        var shown = context
        if let inserted {
            submission.body = BodyImageInsertion.insert(inserted, into: submission.body, at: input.cursor)
            shown.flash = "The image is in the text. Nothing is saved yet: press Save to keep it."
        }
        return try form(
            submission, article: current, context: shown, errors: refusal.map { [$0.0: $0.1] } ?? [:],
            status: refusal == nil ? .ok : .unprocessableContent,
            formAction: current.map { EditorPaths.article($0.id) } ?? EditorPaths.articles, previewing: true,
            insertAlt: inserted == nil ? input.alt : "")
    }
}
