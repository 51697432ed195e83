/// Emits the ``Program`` for a laid-out token tree.
struct ProgramBuilder {
    private let tree: TokenTree
    private let layout: StandaloneLayout
    private let lines: LineTable
    private(set) var references: [Reference] = []

    private var ops: [Op] = []
    private var text: [UInt8] = []
    private var keys: [HashedKey] = []
    private var inclusions: [Inclusion] = []
    private var blocks: [Block] = []
    /// Operations before this index belong to a finished body and must not grow.
    private var sealedOps = 0

    private var source: [UInt8] { tree.source }
    private var tokens: [Token] { tree.tokens }

    init(tree: TokenTree, layout: StandaloneLayout, lines: LineTable) {
        self.tree = tree
        self.layout = layout
        self.lines = lines
    }

    mutating func build() throws(TemplateError) -> Program {
        try build(0..<tokens.count, strip: [])
        return Program(ops: ops, text: text, keys: keys, inclusions: inclusions, blocks: blocks)
    }

    /// Appends the operations for `range`. `strip` is the intrinsic indentation of the
    /// innermost block, removed from the start of every line inside it so that its content can
    /// be re-indented wherever it is rendered.
    private mutating func build(_ range: Range<Int>, strip: [UInt8]) throws(TemplateError) {
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
            if layout.dropped[index] {
                index += 1
                continue
            }
            switch token.kind {
            case .text:
                var start = token.start
                if isAtLineStart(start) { start += commonPrefixCount(source[start..<token.end], strip) }
                appendText(source[start..<token.end])
            case .variable, .rawVariable:
                ops.append(.variable(try name(of: token), escaped: token.kind == .variable))
            case .section, .invertedSection:
                let sectionName = try name(of: token)
                let close = tree.match[index]
                try withBody(from: index + 1, to: close, strip: strip) { end in
                    .section(sectionName, inverted: token.kind == .invertedSection, end: end)
                }
                index = close
            case .partial:
                let inclusion = inclusion(at: index, overrides: [], strip: strip)
                ops.append(.inclusion(index: inclusion, end: Int32(ops.count + 1)))
            case .parent:
                try buildParent(at: index, strip: strip)
                index = tree.match[index]
            case .block:
                try buildBlock(at: index, strip: strip)
                index = tree.match[index]
            case .comment, .delimiters, .close:
                break
            }
            index += 1
        }
    }

    /// Emits an operation whose body follows it, then patches in where the body ends.
    private mutating func withBody(
        from start: Int, to end: Int, strip: [UInt8], _ op: (Int32) -> Op
    ) throws(TemplateError) {
        let position = ops.count
        ops.append(op(0))
        try build(start..<end, strip: strip)
        ops[position] = op(Int32(ops.count))
        sealedOps = ops.count
    }

    private mutating func appendText(_ bytes: ArraySlice<UInt8>) {
        guard !bytes.isEmpty else { return }
        // Text that follows text (across dropped lines, comments, delimiter changes) extends
        // the previous operation, so the renderer copies it in one go.
        if ops.count > sealedOps, case .text(let start, let end)? = ops.last, end == Int32(text.count) {
            ops[ops.count - 1] = .text(start: start, end: end + Int32(bytes.count))
        } else {
            ops.append(.text(start: Int32(text.count), end: Int32(text.count + bytes.count)))
        }
        text.append(contentsOf: bytes)
    }

    /// Only blocks directly inside the parent tag are arguments; everything else there,
    /// sections and their blocks included, is ignored. Their operations follow the inclusion.
    private mutating func buildParent(at parent: Int, strip: [UInt8]) throws(TemplateError) {
        let position = ops.count
        ops.append(.inclusion(index: 0, end: 0))
        var overrides: [Override] = []
        var index = parent + 1
        while index < tree.match[parent] {
            let token = tokens[index]
            if token.kind == .block {
                var contentStrip = strip
                if case .standalone(let intrinsic) = layout.blocks[index] { contentStrip = intrinsic }
                let start = Int32(ops.count)
                try build(index + 1..<tree.match[index], strip: contentStrip)
                overrides.append(Override(name: token.name, start: start, end: Int32(ops.count)))
                sealedOps = ops.count
            }
            switch token.kind {
            case .section, .invertedSection, .parent, .block: index = tree.match[index] + 1
            default: index += 1
            }
        }
        let inclusion = inclusion(at: parent, overrides: overrides, strip: strip)
        ops[position] = .inclusion(index: inclusion, end: Int32(ops.count))
    }

    private mutating func buildBlock(at index: Int, strip: [UInt8]) throws(TemplateError) {
        let token = tokens[index]
        let block: Block
        var contentStrip = strip
        switch layout.blocks[index] {
        case .standalone(let intrinsic):
            block = Block(
                name: token.name, indentation: removingPrefix(strip, from: intrinsic), standalone: true)
            contentStrip = intrinsic
        case .inline(let leading):
            block = Block(
                name: token.name, indentation: removingPrefix(strip, from: leading), standalone: false)
        case nil:
            block = Block(name: token.name, indentation: [], standalone: false)
        }
        blocks.append(block)
        let blockIndex = Int32(blocks.count - 1)
        try withBody(from: index + 1, to: tree.match[index], strip: contentStrip) { end in
            .block(index: blockIndex, end: end)
        }
    }

    private mutating func inclusion(at index: Int, overrides: [Override], strip: [UInt8]) -> Int32 {
        let token = tokens[index]
        let location = lines.location(of: token.start)
        references.append(Reference(name: token.name, location: location))
        inclusions.append(
            Inclusion(
                name: token.name,
                indentation: layout.indentation[index].map { removingPrefix(strip, from: $0) },
                overrides: overrides, location: location))
        return Int32(inclusions.count - 1)
    }

    private func isAtLineStart(_ offset: Int) -> Bool {
        offset > 0 && source[offset - 1] == UInt8(ascii: "\n")
    }

    private mutating func name(of token: Token) throws(TemplateError) -> NameRef {
        let start = Int32(keys.count)
        if token.name == "." { return NameRef(start: start, count: 0) }
        let parts = token.name.split(separator: ".", omittingEmptySubsequences: false)
        guard !parts.contains(where: \.isEmpty) else {
            throw lines.error(.invalidTagName(token.name), at: token.start)
        }
        keys.append(contentsOf: parts.map { HashedKey(String($0)) })
        return NameRef(start: start, count: Int32(parts.count))
    }
}

/// A partial or parent tag, kept so a library can check that every name it uses exists.
struct Reference: Sendable {
    let name: String
    let location: SourceLocation
}

private func commonPrefixCount(_ bytes: ArraySlice<UInt8>, _ prefix: [UInt8]) -> Int {
    var count = 0
    var index = bytes.startIndex
    while count < prefix.count, index < bytes.endIndex, bytes[index] == prefix[count] {
        count += 1
        index += 1
    }
    return count
}

private func removingPrefix(_ prefix: [UInt8], from bytes: [UInt8]) -> [UInt8] {
    Array(bytes.dropFirst(commonPrefixCount(bytes[...], prefix)))
}
