/// Compiles template source into a ``Program``.
///
/// Three passes over the scanner's tokens keep each rule local:
/// 1. structure (``TokenTree``): match every opening tag with its `{{/name}}`, reporting bad
///    nesting;
/// 2. layout (``StandaloneLayout``): decide which tags are standalone and which whitespace
///    therefore disappears;
/// 3. build (``ProgramBuilder``): emit operations, merging text and removing blocks'
///    intrinsic indentation.
enum Parser {
    /// Sections, parents and blocks nested deeper than this are refused, which keeps the
    /// recursive build pass far from the end of a thread's stack.
    static let maxNesting = 100

    static func compile(_ source: [UInt8], path: String) throws(TemplateError) -> (
        Program, [Reference]
    ) {
        guard source.count < Int32.max else { throw TemplateError(.tooLarge, path: path) }
        let lines = LineTable(source: source, path: path)
        var scanner = Scanner(source: source, lines: lines)
        let tree = try TokenTree(source: source, tokens: try scanner.scan(), lines: lines)
        let layout = StandaloneLayout(tree)
        var builder = ProgramBuilder(tree: tree, layout: layout, lines: lines)
        let program = try builder.build()
        return (program, builder.references)
    }
}

/// Tokens with their nesting resolved.
struct TokenTree {
    let source: [UInt8]
    let tokens: [Token]
    /// For opening tags, the index of the closing tag; for closing tags, the opening tag's.
    private(set) var match: [Int]
    /// The innermost opening tag around each token, or -1.
    private(set) var enclosing: [Int]

    init(source: [UInt8], tokens: [Token], lines: LineTable) throws(TemplateError) {
        self.source = source
        self.tokens = tokens
        match = Array(repeating: -1, count: tokens.count)
        enclosing = Array(repeating: -1, count: tokens.count)
        try matchSections(lines)
    }

    private mutating func matchSections(_ lines: LineTable) throws(TemplateError) {
        var open: [Int] = []
        for index in tokens.indices {
            let token = tokens[index]
            enclosing[index] = open.last ?? -1
            switch token.kind {
            case .section, .invertedSection, .parent, .block:
                open.append(index)
                if open.count > Parser.maxNesting {
                    throw lines.error(.nestingTooDeep, at: token.start)
                }
            case .close:
                guard let top = open.popLast() else {
                    throw lines.error(.unexpectedClosingTag(token.name), at: token.start)
                }
                guard tokens[top].name == token.name else {
                    throw lines.error(
                        .mismatchedClosingTag(found: token.name, expected: tokens[top].name),
                        at: token.start)
                }
                match[top] = index
                match[index] = top
                enclosing[index] = open.last ?? -1
            default:
                break
            }
        }
        if let top = open.last {
            throw lines.error(.unclosedSection(tokens[top].name), at: tokens[top].start)
        }
    }

    /// Directly inside a parent tag, where only blocks mean anything.
    func isInParentBody(_ index: Int) -> Bool {
        let outer = enclosing[index]
        return outer >= 0 && tokens[outer].kind == .parent
    }

    /// A block passed to a parent, as opposed to a block a parent defines.
    func isOverride(_ index: Int) -> Bool {
        tokens[index].kind == .block && isInParentBody(index)
    }
}
