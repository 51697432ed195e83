/// Everything that can go wrong while loading, compiling or rendering a template.
///
/// Errors carry the template's path and a 1-based line and column so that a message such as
/// `Templates/article.mustache:14:7: unclosed section 'likes'` points an editor straight at the
/// problem. Errors that belong to a whole file (it cannot be read) or to no file at all (no
/// template of that name) use line and column 0, and `description` then leaves them out.
public struct TemplateError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Kind: Sendable, Equatable {
        /// A section, inverted section, parent or block reached the end of the template open.
        case unclosedSection(String)
        /// A `{{/name}}` with nothing open.
        case unexpectedClosingTag(String)
        /// A `{{/name}}` that does not close the innermost open section.
        case mismatchedClosingTag(found: String, expected: String)
        /// An opening delimiter without its closing delimiter.
        case unclosedTag
        /// A `{{=... ...=}}` tag that does not name exactly two delimiters.
        case badDelimiters
        /// A tag whose name is empty, contains whitespace or is a malformed dotted name.
        case invalidTagName(String)
        /// Sections, partials or blocks nested deeper than the engine allows.
        case nestingTooDeep
        /// A template source of 2 GiB or more; offsets are stored in 32 bits.
        case tooLarge
        /// A `{{>name}}` or `{{<name}}` that names no template in the library.
        case missingPartial(String)
        /// `render(_:)` was asked for a template the library does not have.
        case missingTemplate(String)
        /// A template file or directory could not be read.
        case unreadable(String)
    }

    public let kind: Kind
    /// The template's file path when it was loaded from disk, otherwise its name.
    public let path: String
    public let line: Int
    public let column: Int

    public init(_ kind: Kind, path: String, line: Int = 0, column: Int = 0) {
        self.kind = kind
        self.path = path
        self.line = line
        self.column = column
    }

    public var message: String {
        switch kind {
        case .unclosedSection(let name): "unclosed section '\(name)'"
        case .unexpectedClosingTag(let name): "unexpected closing tag '\(name)'"
        case .mismatchedClosingTag(let found, let expected):
            "mismatched closing tag '\(found)', expected '\(expected)'"
        case .unclosedTag: "unclosed tag"
        case .badDelimiters: "bad delimiter change"
        case .invalidTagName(let name): "invalid tag name '\(name)'"
        case .nestingTooDeep: "templates nested too deeply"
        case .tooLarge: "template too large"
        case .missingPartial(let name): "missing partial '\(name)'"
        case .missingTemplate(let name): "no template named '\(name)'"
        case .unreadable(let reason): reason
        }
    }

    public var description: String {
        line > 0 ? "\(path):\(line):\(column): \(message)" : "\(path): \(message)"
    }
}

/// Where a tag sits in its template, kept on the few nodes that can fail at render time.
struct SourceLocation: Sendable, Equatable {
    let path: String
    let line: Int
    let column: Int

    func error(_ kind: TemplateError.Kind) -> TemplateError {
        TemplateError(kind, path: path, line: line, column: column)
    }
}
