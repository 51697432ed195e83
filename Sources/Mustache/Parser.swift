/// Turns tokens into a ``Program``, applying Mustache's whitespace rules on the way.
///
/// Three passes over the token array keep each rule local:
/// 1. structure: match every opening tag with its `{{/name}}`, reporting bad nesting;
/// 2. layout: decide which tags are standalone and which whitespace therefore disappears;
/// 3. build: emit operations, merging text and removing blocks' intrinsic indentation.
///
/// Inheritance bends the standalone rules, because everything in a parent tag outside its
/// blocks is ignored: a parent's opening and closing tags count as one standalone pair, and a
/// block passed to a parent is a template of its own whose first and last lines start and end
/// at its tags (see the ~inheritance spec, "Standalone parent" and "Block reindentation").
struct Parser {
    /// Sections, parents and blocks nested deeper than this are refused, which keeps the
    /// recursive build and render passes far from the end of a thread's stack.
    static let maxNesting = 100

    private let source: [UInt8]
    private let lines: LineTable
    private let tokens: [Token]
    /// For opening tags, the index of the closing tag; for closing tags, the opening tag's.
    private var match: [Int]
    /// The innermost opening tag around each token, or -1.
    private var enclosing: [Int]
    /// Text tokens swallowed by a standalone tag.
    private var dropped: [Bool]
    /// Standalone partials and parents: the whitespace in front of them.
    private var indentation: [Int: [UInt8]] = [:]
    /// Blocks, keyed by opening tag.
    private var blockLayouts: [Int: BlockLayout] = [:]
    private(set) var references: [Reference] = []

    // The program being built.
    private var ops: [Op] = []
    private var text: [UInt8] = []
    private var keys: [HashedKey] = []
    private var inclusions: [Inclusion] = []
    private var blocks: [Block] = []
    /// Operations before this index belong to a finished body and must not grow.
    private var sealedOps = 0

    private enum BlockLayout {
        /// The opening tag ends its line; `intrinsic` is the indentation of the line after it.
        case standalone(intrinsic: [UInt8])
        /// The opening tag shares its line; `leading` is the whitespace in front of it when
        /// only whitespace is in front of it.
        case inline(leading: [UInt8])
    }

    init(source: [UInt8], path: String) throws(TemplateError) {
        guard source.count < Int32.max else { throw TemplateError(.tooLarge, path: path) }
        self.source = source
        lines = LineTable(source: source, path: path)
        var scanner = Scanner(source: source, lines: lines)
        tokens = try scanner.scan()
        match = Array(repeating: -1, count: tokens.count)
        enclosing = Array(repeating: -1, count: tokens.count)
        dropped = Array(repeating: false, count: tokens.count)
    }

    mutating func parse() throws(TemplateError) -> Program {
        try matchSections()
        decideLayout()
        try build(0..<tokens.count, strip: [])
        return Program(ops: ops, text: text, keys: keys, inclusions: inclusions, blocks: blocks)
    }

    // MARK: - Structure

    private mutating func matchSections() throws(TemplateError) {
        var open: [Int] = []
        for index in tokens.indices {
            let token = tokens[index]
            enclosing[index] = open.last ?? -1
            switch token.kind {
            case .section, .invertedSection, .parent, .block:
                open.append(index)
                if open.count > Self.maxNesting {
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
    private func isInParentBody(_ index: Int) -> Bool {
        let outer = enclosing[index]
        return outer >= 0 && tokens[outer].kind == .parent
    }

    private func isOverride(_ index: Int) -> Bool {
        tokens[index].kind == .block && isInParentBody(index)
    }

    // MARK: - Layout

    private struct Clearance {
        /// The tokens between the tag and the line boundary, all blank text.
        let range: Range<Int>
    }

    /// Whether only blank text separates the tag from the start of its line. A block passed to
    /// a parent starts a line of its own: what precedes it in the parent tag is ignored.
    private func clearance(before index: Int) -> Clearance? {
        var current = index - 1
        while current >= 0 {
            let token = tokens[current]
            if token.kind == .text {
                if endsLine(token) { return Clearance(range: current + 1..<index) }
                guard isBlank(token) else { return nil }
                current -= 1
            } else if enclosing[index] == current && isOverride(current) {
                return Clearance(range: current + 1..<index)
            } else {
                return nil
            }
        }
        return Clearance(range: 0..<index)
    }

    /// Whether only blank text separates the tag from the end of its line, the end of the
    /// template, or the end of the block passed to a parent that contains it. The range
    /// includes the line break.
    private func clearance(after index: Int) -> Clearance? {
        var current = index + 1
        while current < tokens.count {
            let token = tokens[current]
            if token.kind == .text {
                guard isBlank(token) else { return nil }
                if endsLine(token) { return Clearance(range: index + 1..<current + 1) }
                current += 1
            } else if token.kind == .close && match[current] == enclosing[index]
                && isOverride(match[current])
            {
                return Clearance(range: index + 1..<current)
            } else {
                return nil
            }
        }
        return Clearance(range: index + 1..<tokens.count)
    }

    private mutating func decideLayout() {
        for index in tokens.indices {
            let token = tokens[index]
            if token.kind == .text || token.kind == .variable || token.kind == .rawVariable {
                continue
            }
            if token.kind == .close {
                let opening = match[index]
                if isOverride(opening) {
                    // The last line of a block passed to a parent ends at its closing tag.
                    if let before = clearance(before: index) { drop(before.range) }
                    continue
                }
                // A parent's closing tag is decided with its opening tag.
                if tokens[opening].kind == .parent { continue }
            }
            if isInParentBody(index) && !isOverride(index) { continue }
            switch token.kind {
            case .parent:
                // Standalone as a pair: whitespace before the opening tag, and the line break
                // after the closing tag, as if the parent tag were one partial tag.
                guard let before = clearance(before: index),
                    let after = clearance(after: match[index])
                else { continue }
                indentation[index] = bytes(before.range)
                drop(before.range)
                drop(after.range)
            case .block where isOverride(index):
                // The first line of a block passed to a parent starts after its opening tag.
                guard let after = clearance(after: index), endsLine(after) else { continue }
                drop(after.range)
                blockLayouts[index] = .standalone(intrinsic: leadingWhitespace(after: after))
            default:
                let before = clearance(before: index)
                let after = clearance(after: index)
                if let before, let after {
                    if token.kind == .partial { indentation[index] = bytes(before.range) }
                    if token.kind == .block {
                        blockLayouts[index] = .standalone(intrinsic: leadingWhitespace(after: after))
                    }
                    drop(before.range)
                    drop(after.range)
                } else if token.kind == .block {
                    blockLayouts[index] = .inline(leading: before.map { bytes($0.range) } ?? [])
                }
            }
        }
    }

    private func endsLine(_ token: Token) -> Bool {
        source[token.end - 1] == UInt8(ascii: "\n")
    }

    private func endsLine(_ clearance: Clearance) -> Bool {
        guard let last = clearance.range.last else { return false }
        return tokens[last].kind == .text && endsLine(tokens[last])
    }

    /// Text made only of spaces and tabs, apart from a final line break.
    private func isBlank(_ token: Token) -> Bool {
        var end = token.end
        if end > token.start, source[end - 1] == UInt8(ascii: "\n") {
            end -= 1
            if end > token.start, source[end - 1] == UInt8(ascii: "\r") { end -= 1 }
        }
        return source[token.start..<end].allSatisfy(isWhitespace)
    }

    private func bytes(_ range: Range<Int>) -> [UInt8] {
        guard let first = range.first, let last = range.last else { return [] }
        return Array(source[tokens[first].start..<tokens[last].end])
    }

    /// The indentation of the line that follows a line break, used as a block's intrinsic
    /// indentation (it may belong to the block's closing tag when the block is empty).
    private func leadingWhitespace(after clearance: Clearance) -> [UInt8] {
        guard let last = clearance.range.last else { return [] }
        var end = tokens[last].end
        let start = end
        while end < source.count, isWhitespace(source[end]) { end += 1 }
        return Array(source[start..<end])
    }

    private mutating func drop(_ range: Range<Int>) {
        for index in range { dropped[index] = true }
    }

    // MARK: - Build

    /// Appends the operations for `range`. `strip` is the intrinsic indentation of the
    /// innermost block, removed from the start of every line inside it so that its content can
    /// be re-indented wherever it is rendered.
    private mutating func build(_ range: Range<Int>, strip: [UInt8]) throws(TemplateError) {
        var index = range.lowerBound
        while index < range.upperBound {
            let token = tokens[index]
            if dropped[index] {
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
                let close = match[index]
                try withBody(from: index + 1, to: close, strip: strip) { end in
                    .section(sectionName, inverted: token.kind == .invertedSection, end: end)
                }
                index = close
            case .partial:
                let inclusion = inclusion(at: index, overrides: [], strip: strip)
                ops.append(.inclusion(index: inclusion, end: Int32(ops.count + 1)))
            case .parent:
                try buildParent(at: index, strip: strip)
                index = match[index]
            case .block:
                try buildBlock(at: index, strip: strip)
                index = match[index]
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
        while index < match[parent] {
            let token = tokens[index]
            if token.kind == .block {
                var contentStrip = strip
                if case .standalone(let intrinsic) = blockLayouts[index] { contentStrip = intrinsic }
                let start = Int32(ops.count)
                try build(index + 1..<match[index], strip: contentStrip)
                overrides.append(Override(name: token.name, start: start, end: Int32(ops.count)))
                sealedOps = ops.count
            }
            switch token.kind {
            case .section, .invertedSection, .parent, .block: index = match[index] + 1
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
        switch blockLayouts[index] {
        case .standalone(let intrinsic):
            block = Block(name: token.name, indentation: removingPrefix(strip, from: intrinsic), standalone: true)
            contentStrip = intrinsic
        case .inline(let leading):
            block = Block(name: token.name, indentation: removingPrefix(strip, from: leading), standalone: false)
        case nil:
            block = Block(name: token.name, indentation: [], standalone: false)
        }
        blocks.append(block)
        let blockIndex = Int32(blocks.count - 1)
        try withBody(from: index + 1, to: match[index], strip: contentStrip) { end in
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
                indentation: indentation[index].map { removingPrefix(strip, from: $0) },
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
