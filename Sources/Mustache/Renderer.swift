/// Runs compiled programs against a context, writing the output to a byte buffer.
///
/// All mutable state lives in this value, created for one render call, so concurrent renders
/// share nothing but immutable programs.
struct Renderer: ~Copyable {
    /// Partials, parents, sections and blocks nested deeper than this at render time (through
    /// recursive partials, typically) fail instead of exhausting the thread's stack.
    static let maxDepth = 100

    /// An override in force: which program's operations fill the block of that name.
    private struct ActiveOverride {
        let name: String
        let program: Program
        let start: Int32
        let end: Int32
    }

    private let partials: [String: Template]
    private var stack: [MustacheValue]
    /// Outermost first, and searched from the front: the most derived template wins.
    private var overrides: [ActiveOverride] = []
    /// What each template line starts with: the sum of enclosing standalone partials' and
    /// blocks' indentation. Usually empty.
    private var indentation: [UInt8] = []
    /// Whether the last template text written ended a line, so the next write owes the
    /// indentation. Tracking this at render time, rather than marking line starts at compile
    /// time, makes a block that continues a line (`  {{$body}}{{/body}}`) come out right.
    private var atLineStart = true
    private var depth = 0
    private var out = OutputBuffer()

    init(context: MustacheValue, partials: [String: Template]) {
        self.partials = partials
        stack = []
        stack.reserveCapacity(8)
        stack.append(context)
    }

    /// Renders `program` and appends the result to `destination`, or appends nothing if it
    /// throws.
    consuming func render(_ program: Program, appendingTo destination: inout [UInt8])
        throws(TemplateError)
    {
        try run(program, from: 0, to: Int32(program.ops.count))
        out.copy(into: &destination)
    }

    private mutating func run(_ program: Program, from start: Int32, to end: Int32)
        throws(TemplateError)
    {
        let ops = program.ops
        var index = Int(start)
        let end = Int(end)
        while index < end {
            switch ops[index] {
            case .text(let start, let end):
                write(UnsafeBufferPointer(rebasing: program.text[Int(start)..<Int(end)]))
                index += 1
            case .variable(let name, let escaped):
                if let value = lookup(name, in: program) { write(value, escaped: escaped) }
                index += 1
            case .section(let name, let inverted, let sectionEnd):
                try section(name, inverted: inverted, program, body: Int32(index + 1), end: sectionEnd)
                index = Int(sectionEnd)
            case .inclusion(let inclusion, let inclusionEnd):
                try include(program.inclusions[Int(inclusion)], from: program)
                index = Int(inclusionEnd)
            case .block(let block, let blockEnd):
                try render(program.blocks[Int(block)], program, body: Int32(index + 1), end: blockEnd)
                index = Int(blockEnd)
            }
        }
    }

    // MARK: - Output

    @inline(__always)
    private mutating func indentIfAtLineStart() {
        if atLineStart {
            if !indentation.isEmpty { indentation.withUnsafeBufferPointer { out.write($0) } }
            atLineStart = false
        }
    }

    @inline(__always)
    private mutating func write(_ text: UnsafeBufferPointer<UInt8>) {
        indentIfAtLineStart()
        if indentation.isEmpty {
            out.write(text)
        } else {
            writeIndented(text)
        }
        atLineStart = text.last == UInt8(ascii: "\n")
    }

    private mutating func writeIndented(_ text: UnsafeBufferPointer<UInt8>) {
        var lineStart = 0
        // A line break at the very end is left for the next write, which may never come.
        let searchEnd = text.count - 1
        var index = ByteSearch.firstIndex(of: UInt8(ascii: "\n"), in: text, from: 0, to: searchEnd)
        while let newline = index {
            out.write(UnsafeBufferPointer(rebasing: text[lineStart...newline]))
            indentation.withUnsafeBufferPointer { out.write($0) }
            lineStart = newline + 1
            index = ByteSearch.firstIndex(
                of: UInt8(ascii: "\n"), in: text, from: lineStart, to: searchEnd)
        }
        out.write(UnsafeBufferPointer(rebasing: text[lineStart...]))
    }

    /// Values are data, not template lines: their line breaks are never indented.
    private mutating func write(_ value: MustacheValue, escaped: Bool) {
        switch value {
        case .string(let string):
            guard !string.isEmpty else { return }
            indentIfAtLineStart()
            if escaped {
                HTMLEscaping.write(escaping: string, to: &out)
            } else {
                HTMLEscaping.write(raw: string, to: &out)
            }
        case .int(let number):
            indentIfAtLineStart()
            NumberFormatting.write(number, to: &out)
        case .double(let number):
            indentIfAtLineStart()
            NumberFormatting.write(number, to: &out)
        case .bool(let flag):
            indentIfAtLineStart()
            HTMLEscaping.write(raw: flag ? "true" : "false", to: &out)
        case .null, .list, .dictionary, .object:
            break
        }
    }

    // MARK: - Names

    private func lookup(_ name: NameRef, in program: Program) -> MustacheValue? {
        guard name.count > 0, let keys = program.keys.baseAddress else { return stack.last }
        let first = keys + Int(name.start)
        guard var value = lookup(first) else { return nil }
        // Only the first part searches the stack; the rest resolve against what it found.
        var part = first + 1
        while part < first + Int(name.count) {
            guard let member = value.member(part) else { return nil }
            value = member
            part += 1
        }
        return value
    }

    private func lookup(_ key: UnsafePointer<HashedKey>) -> MustacheValue? {
        stack.withUnsafeBufferPointer { stack in
            var index = stack.count - 1
            while index >= 0 {
                if let value = stack[index].member(key) { return value }
                index -= 1
            }
            return nil
        }
    }

    // MARK: - Sections, partials, blocks

    private mutating func enter(_ location: SourceLocation?) throws(TemplateError) {
        depth += 1
        if depth > Self.maxDepth {
            throw location?.error(.nestingTooDeep) ?? TemplateError(.nestingTooDeep, path: "template")
        }
    }

    // Kept out of `run`, whose frame is on the stack once per nesting level.
    @inline(never)
    private mutating func section(
        _ name: NameRef, inverted: Bool, _ program: Program, body: Int32, end: Int32
    ) throws(TemplateError) {
        let value = lookup(name, in: program) ?? .null
        guard value.isTruthy != inverted else { return }
        try enter(nil)
        if inverted {
            try run(program, from: body, to: end)
        } else if case .list(let items) = value {
            for item in items {
                stack.append(item)
                try run(program, from: body, to: end)
                stack.removeLast()
            }
        } else {
            stack.append(value)
            try run(program, from: body, to: end)
            stack.removeLast()
        }
        depth -= 1
    }

    @inline(never)
    private mutating func include(_ inclusion: Inclusion, from program: Program) throws(TemplateError) {
        // The spec renders a missing partial as nothing; libraries can refuse them at load time.
        guard let template = partials[inclusion.name] else { return }
        try enter(inclusion.location)
        let outerOverrides = overrides.count
        for override in inclusion.overrides {
            overrides.append(
                ActiveOverride(
                    name: override.name, program: program, start: override.start, end: override.end))
        }
        let outerIndentation = indentation.count
        if let extra = inclusion.indentation { indentation.append(contentsOf: extra) }
        try run(template.program, from: 0, to: Int32(template.program.ops.count))
        indentation.removeLast(indentation.count - outerIndentation)
        overrides.removeLast(overrides.count - outerOverrides)
        depth -= 1
    }

    @inline(never)
    private mutating func render(
        _ block: Block, _ program: Program, body: Int32, end: Int32
    ) throws(TemplateError) {
        try enter(nil)
        let outerIndentation = indentation.count
        if let override = overrides.first(where: { $0.name == block.name }) {
            indentation.append(contentsOf: block.indentation)
            try run(override.program, from: override.start, to: override.end)
        } else {
            // Default content that shares its opening tag's line was never outdented, so it only
            // gets the site's indentation back when it was.
            if block.standalone { indentation.append(contentsOf: block.indentation) }
            try run(program, from: body, to: end)
        }
        indentation.removeLast(indentation.count - outerIndentation)
        depth -= 1
    }
}
