/// Mustache's whitespace rules: which tags stand alone on their line, and so which text
/// disappears with them, and how blocks are indented.
///
/// Inheritance bends the standalone rules, because everything in a parent tag outside its
/// blocks is ignored: a parent's opening and closing tags count as one standalone pair, and a
/// block passed to a parent is a template of its own whose first and last lines start and end
/// at its tags (see the ~inheritance spec, "Standalone parent" and "Block reindentation").
struct StandaloneLayout {
    enum BlockLayout {
        /// The opening tag ends its line; `intrinsic` is the indentation of the line after it.
        case standalone(intrinsic: [UInt8])
        /// The opening tag shares its line; `leading` is the whitespace in front of it when
        /// only whitespace is in front of it.
        case inline(leading: [UInt8])
    }

    private let tree: TokenTree
    /// Text tokens swallowed by a standalone tag.
    private(set) var dropped: [Bool]
    /// Standalone partials and parents: the whitespace in front of them.
    private(set) var indentation: [Int: [UInt8]] = [:]
    /// Blocks, keyed by opening tag.
    private(set) var blocks: [Int: BlockLayout] = [:]

    private var source: [UInt8] { tree.source }
    private var tokens: [Token] { tree.tokens }

    init(_ tree: TokenTree) {
        self.tree = tree
        dropped = Array(repeating: false, count: tree.tokens.count)
        decideLayout()
    }

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
            } else if tree.enclosing[index] == current && tree.isOverride(current) {
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
            } else if token.kind == .close && tree.match[current] == tree.enclosing[index]
                && tree.isOverride(tree.match[current])
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
                let opening = tree.match[index]
                if tree.isOverride(opening) {
                    // The last line of a block passed to a parent ends at its closing tag.
                    if let before = clearance(before: index) { drop(before.range) }
                    continue
                }
                // A parent's closing tag is decided with its opening tag.
                if tokens[opening].kind == .parent { continue }
            }
            if tree.isInParentBody(index) && !tree.isOverride(index) { continue }
            switch token.kind {
            case .parent:
                // Standalone as a pair: whitespace before the opening tag, and the line break
                // after the closing tag, as if the parent tag were one partial tag.
                guard let before = clearance(before: index),
                    let after = clearance(after: tree.match[index])
                else { continue }
                indentation[index] = bytes(before.range)
                drop(before.range)
                drop(after.range)
            case .block where tree.isOverride(index):
                // The first line of a block passed to a parent starts after its opening tag.
                guard let after = clearance(after: index), endsLine(after) else { continue }
                drop(after.range)
                blocks[index] = .standalone(intrinsic: leadingWhitespace(after: after))
            default:
                let before = clearance(before: index)
                let after = clearance(after: index)
                if let before, let after {
                    if token.kind == .partial { indentation[index] = bytes(before.range) }
                    if token.kind == .block {
                        blocks[index] = .standalone(intrinsic: leadingWhitespace(after: after))
                    }
                    drop(before.range)
                    drop(after.range)
                } else if token.kind == .block {
                    blocks[index] = .inline(leading: before.map { bytes($0.range) } ?? [])
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
}
