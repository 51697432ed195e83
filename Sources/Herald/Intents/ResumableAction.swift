import HTTP

/// A resumable form's input, decoded into the action's own struct from one field list.
protocol ResumableInput: Sendable {
    /// The form fields the action keeps when it is captured; every other field is dropped, so
    /// what rides in the cookie is bounded by what the action accepts, not by what was sent.
    static var keptFields: [String] { get }
    /// Fields a live POST sends that are never kept (passwords): read only when performed live.
    static var secretFields: [String] { get }
    /// A file field kept too (an article's image): the form is then always parked.
    static var keptFile: String? { get }
    /// Decodes the input; a malformed route parameter throws its 404.
    init(_ form: KeptForm) throws(HTTPError)
}

extension ResumableInput {
    static var secretFields: [String] { [] }
    static var keptFile: String? { nil }
}

/// An input with nothing in it beyond the route (`/account/sessions/end-others`).
struct NoInput: ResumableInput {
    static let keptFields: [String] = []
    init(_ form: KeptForm) {}
}

/// How an answer is given: a page (or a redirect to one), or JSON for the page's script.
enum Reply: Sendable, Equatable {
    case page, json
}

/// Why an action's form is shown again with what was typed in it, instead of being performed.
enum FormAgain: Sendable, Equatable {
    /// It waited more than 15 minutes while the reader logged in (SPEC: never performed then).
    case waitedTooLong
    /// It could be kept neither in the cookie nor parked: 422, log in first.
    case notKept
    /// It carries a password, which is never captured: after login the reader types it again.
    case retypePassword
}

/// What a capture does with the input once the action has checked it.
enum Capture: Sendable {
    /// Keep this form (its fields checked and normalised).
    case keep(KeptForm)
    /// The input could never be performed: answer this now (the form again, 422), store nothing.
    case refuse(Response)
}

/// A role an action needs beyond an account, and what someone without it is told.
struct RoleRequirement: Sendable {
    let role: Role
    let refusal: String
}

/// A POST that survives login: one entry in `ResumableActions`, which registers its route. The
/// live POST and the resumed intent both decode `Input` and call `perform`, which calls the
/// action's service method and maps its outcome to a response; nothing else differs.
struct ResumableAction<Input: ResumableInput>: Sendable {
    let name: ResumableActionName
    /// The POST route (`/articles/:slug/like`).
    let path: String
    /// A body limit above the server's (an article with its image).
    var maxBodyBytes: Int? = nil
    /// Answered on the password-hashing pool when performed live (its form checks a password).
    var hashesPassword = false
    /// Checked for the live click and the resumed action alike, before `perform`.
    var role: RoleRequirement? = nil
    /// What it will do, in words for the login page ("like “Title”"), naming every value it
    /// changes. Throws the 404 of a target that does not exist (nothing is captured then); a target
    /// readers may not see (a draft) is described the same generic way as a missing one.
    /// Written in the request's language (`Messages`).
    let describe: @Sendable (Input, Messages) throws -> String
    /// Where the reader lands after cancelling it (and where a refused one points).
    let returnPath: @Sendable (Input) -> String
    /// Before capture: the action's own rules, so that nothing is kept that could never be done.
    var check: @Sendable (Input, KeptForm, RequestContext) throws -> Capture = { _, form, _ in .keep(form) }
    /// The action, for the account `User` (which holds `role`).
    let perform: @Sendable (Input, User, inout RequestContext, Reply) throws -> Response
    /// The kept fields that hold what a person typed, with their labels: shown back to copy
    /// whenever the action is refused.
    var typedText: [(field: String, label: String)] = []
    /// The form it came from with the typed text put back. Nil: nothing to put back (a like is
    /// simply not done when it waited too long).
    var formAgain: (@Sendable (Input, FormAgain, inout RequestContext) throws -> Response)? = nil
    /// Whether it is performed after login, or its form comes back (a form with a password).
    var performedAfterLogin = true
}

/// `ResumableAction` with its input type hidden, so that one list holds them all.
struct AnyResumableAction: Sendable {
    let name: ResumableActionName
    let path: String
    let maxBodyBytes: Int?
    let hashesPassword: Bool
    let role: RoleRequirement?
    let keptFields: [String]
    let secretFields: [String]
    let keptFile: String?
    let typedText: [(field: String, label: String)]
    let performedAfterLogin: Bool
    let hasFormAgain: Bool
    let describe: @Sendable (KeptForm, Messages) throws -> String
    let returnPath: @Sendable (KeptForm) throws -> String
    let check: @Sendable (KeptForm, RequestContext) throws -> Capture
    let perform: @Sendable (KeptForm, User, inout RequestContext, Reply) throws -> Response
    let formAgain: @Sendable (KeptForm, FormAgain, inout RequestContext) throws -> Response?

    init<Input>(_ action: ResumableAction<Input>) {
        name = action.name
        path = action.path
        maxBodyBytes = action.maxBodyBytes
        hashesPassword = action.hashesPassword
        role = action.role
        keptFields = Input.keptFields
        secretFields = Input.secretFields
        keptFile = Input.keptFile
        typedText = action.typedText
        performedAfterLogin = action.performedAfterLogin
        hasFormAgain = action.formAgain != nil
        describe = { form, messages in try action.describe(Input(form), messages) }
        returnPath = { form in action.returnPath(try Input(form)) }
        check = { form, context in try action.check(Input(form), form, context) }
        perform = { form, user, context, reply in try action.perform(Input(form), user, &context, reply) }
        formAgain = { form, why, context in
            guard let again = action.formAgain else { return nil }
            return try again(Input(form), why, &context)
        }
    }

    /// The live POST's values this action reads: its route parameters, its kept and secret
    /// fields (in the order sent), and its kept file.
    func form(of request: Request) throws -> KeptForm {
        let read = Set(keptFields + secretFields)
        let fields = try request.form().pairs.filter { read.contains($0.name) }.map { ($0.name, $0.value) }
        let file = try keptFile.flatMap { name in try request.files().first { $0.name == name }?.bytes }
        return KeptForm(parameters: request.parameters, fields: fields, file: file)
    }

    /// What a person typed into `form`, labelled, for a page that shows it back.
    func typed(in form: KeptForm) -> [(label: String, name: String, text: String)] {
        typedText.compactMap { typed in form[typed.field].map { (typed.label, typed.field, $0) } }
    }
}
