/// A set of named templates that include each other, compiled up front.
///
/// Names are file names without `.mustache`; `{{>nav}}` and `{{<layout}}` look templates up
/// by these names. A normal library is immutable after `init`: rendering takes no lock and
/// touches no file. With `reloadOnChange`, each render first checks the directory and
/// recompiles edited files, for development.
///
/// ```swift
/// let templates = try TemplateLibrary(directory: "Templates")
/// var body: [UInt8] = []
/// try templates.render("article", ["title": article.title], into: &body)
/// ```
public final class TemplateLibrary: Sendable {
    private enum Store: Sendable {
        case fixed([String: Template])
        case reloading(ReloadingTemplates)
    }

    private let store: Store
    /// Where templates come from, for errors that belong to no single template.
    private let origin: String

    /// Compiles every `*.mustache` file directly inside `directory`.
    ///
    /// - Parameters:
    ///   - reloadOnChange: Recompile a file at render time when its modification time or size
    ///     changed. For development only: it lists the directory on every render.
    ///   - validateReferences: Fail if any partial or parent tag names a template that does
    ///     not exist, instead of rendering it as nothing, as the Mustache spec would.
    /// - Throws: The first template that fails to compile, with its path, line and column.
    public init(directory: String, reloadOnChange: Bool = false, validateReferences: Bool = true)
        throws(TemplateError)
    {
        origin = directory
        if reloadOnChange {
            store = .reloading(
                try ReloadingTemplates(directory: directory, validatesReferences: validateReferences))
            return
        }
        var templates: [String: Template] = [:]
        for file in try TemplateDirectory.files(in: directory) {
            templates[file.name] = try TemplateDirectory.compile(file)
        }
        if validateReferences { try Self.validateReferences(in: templates) }
        store = .fixed(templates)
    }

    /// Compiles in-memory sources keyed by name; the name doubles as the path in errors.
    public init(templates sources: [String: String], validateReferences: Bool = true)
        throws(TemplateError)
    {
        origin = "templates"
        var templates: [String: Template] = [:]
        for (name, source) in sources.sorted(by: { $0.key < $1.key }) {
            templates[name] = try Template(source, path: name)
        }
        if validateReferences { try Self.validateReferences(in: templates) }
        store = .fixed(templates)
    }

    public var names: [String] {
        get throws(TemplateError) { try templates().keys.sorted() }
    }

    public func template(named name: String) throws(TemplateError) -> Template? {
        try templates()[name]
    }

    /// Throws for the first partial or parent tag, in name order, that names a missing
    /// template; libraries built with `validateReferences: true` have already done this.
    public func validateReferences() throws(TemplateError) {
        try Self.validateReferences(in: try templates())
    }

    public func render(_ name: String, _ context: MustacheValue, into out: inout [UInt8])
        throws(TemplateError)
    {
        let templates = try templates()
        guard let template = templates[name] else {
            throw TemplateError(.missingTemplate(name), path: origin)
        }
        try template.render(context, partials: templates, into: &out)
    }

    public func render(_ name: String, _ context: MustacheValue = [:]) throws(TemplateError) -> String {
        var out: [UInt8] = []
        try render(name, context, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    private func templates() throws(TemplateError) -> [String: Template] {
        switch store {
        case .fixed(let templates): templates
        case .reloading(let reloading): try reloading.current()
        }
    }

    static func validateReferences(in templates: [String: Template]) throws(TemplateError) {
        for name in templates.keys.sorted() {
            guard let template = templates[name] else { continue }
            for reference in template.references where templates[reference.name] == nil {
                throw reference.location.error(.missingPartial(reference.name))
            }
        }
    }
}
