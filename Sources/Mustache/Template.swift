/// A compiled Mustache template.
///
/// ## Overview
///
/// The engine implements the whole core Mustache spec (interpolation, sections, inverted
/// sections, comments, partials, set delimiters, standalone lines) and template inheritance
/// (`{{<parent}}` with `{{$block}}` arguments); lambdas are not supported.
///
/// Templates are compiled once into an immutable, flat list of operations and rendered any
/// number of times, from any number of threads at once, without locks: all per-render state
/// belongs to the render call. Output is UTF-8 bytes appended to an `inout [UInt8]`,
/// HTML-escaped by default (`& < > " '`) byte-wise, so non-ASCII text passes through
/// untouched and costs nothing extra. A render that throws appends nothing.
///
/// Most code goes through ``TemplateLibrary``, which compiles a directory of templates at
/// start-up and resolves partials and parents by name.
///
/// ## Contexts
///
/// A template reads a ``MustacheValue``: `null`, `bool`, `int`, `double`, `string`, `list`,
/// `dictionary` or `object`. Contexts are plain values built before rendering, so the renderer
/// never casts or reflects. Dictionary literals are the usual way to write one; any
/// ``MustacheConvertible`` (strings, numbers, `Bool`, optionals, arrays, dictionaries,
/// ``MustacheObject``s) can be a value without wrapping:
///
/// ```swift
/// let context: MustacheValue = [
///     "title": article.title,            // String
///     "likes": article.likeCount,        // Int
///     "subtitle": article.subtitle,      // String?: nil is falsey and renders empty
///     "paragraphs": article.paragraphs,  // [String]: {{#paragraphs}}<p>{{.}}</p>{{/paragraphs}}
///     "author": ["name": author.name, "url": author.url],  // {{author.name}}
///     "viewer": .object(viewerModel),    // a MustacheObject
/// ]
/// ```
///
/// Swift cannot infer a literal nested in another literal when its values have different
/// types; write `["name": name, "age": age] as MustacheValue` there.
///
/// Dictionaries become ``MustacheDictionary``, whose keys carry a hash that template names
/// also carry, precomputed, so `{{title}}` costs no hashing at render time. For view models
/// that should not be converted up front, conform to ``MustacheObject`` and answer keys from
/// a `switch`; dotted names (`{{author.name}}`) resolve through nested objects too.
///
/// Truthiness follows mustache.js: `null`, `false`, `0`, `""` and `[]` are falsey.
public final class Template: Sendable {
    /// The file path for templates loaded from disk, otherwise the name given; used in errors.
    public let path: String
    let program: Program
    /// Every partial and parent tag, for load-time validation.
    let references: [Reference]

    public convenience init(_ source: String, path: String = "template") throws(TemplateError) {
        try self.init(bytes: Array(source.utf8), path: path)
    }

    init(bytes: [UInt8], path: String) throws(TemplateError) {
        (program, references) = try Parser.compile(bytes, path: path)
        self.path = path
    }

    /// Renders on its own: partial and parent tags render as nothing. Use ``TemplateLibrary``
    /// for templates that include others.
    public func render(_ context: MustacheValue, into out: inout [UInt8]) throws(TemplateError) {
        try render(context, partials: [:], into: &out)
    }

    public func render(_ context: MustacheValue = [:]) throws(TemplateError) -> String {
        var out: [UInt8] = []
        try render(context, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    func render(_ context: MustacheValue, partials: [String: Template], into out: inout [UInt8])
        throws(TemplateError)
    {
        let renderer = Renderer(context: context, partials: partials)
        try renderer.render(program, appendingTo: &out)
    }
}
