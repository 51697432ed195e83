/// The compiled form of one template: a flat list of operations over one buffer of text.
///
/// Operations hold only integers, so the renderer can walk them without a single retain or
/// release; nested sections are ranges of the same list, not child arrays. Everything is built
/// once by ``Parser`` and never mutated, so any number of threads can render from it at once.
///
/// Standalone-line removal, delimiter changes and block outdenting are resolved at compile
/// time; the only whitespace work left for render time is prefixing lines with the indentation
/// of a standalone partial or block.
final class Program: @unchecked Sendable {
    // @unchecked: the buffers below are written in `init` only and freed in `deinit`.
    let ops: UnsafeMutableBufferPointer<Op>
    let text: UnsafeMutableBufferPointer<UInt8>
    /// Name parts, referenced by ``NameRef``; a buffer rather than an array so that reading a
    /// key's hash or string does not retain anything.
    let keys: UnsafeMutableBufferPointer<HashedKey>
    let inclusions: [Inclusion]
    let blocks: [Block]

    init(ops: [Op], text: [UInt8], keys: [HashedKey], inclusions: [Inclusion], blocks: [Block]) {
        self.ops = .allocate(capacity: ops.count)
        _ = self.ops.initialize(from: ops)
        self.text = .allocate(capacity: text.count)
        _ = self.text.initialize(from: text)
        self.keys = .allocate(capacity: keys.count)
        _ = self.keys.initialize(from: keys)
        self.inclusions = inclusions
        self.blocks = blocks
    }

    deinit {
        ops.deallocate()
        text.deallocate()
        keys.deinitialize()
        keys.deallocate()
    }
}

/// One step of a program. Ranges refer to the enclosing ``Program``'s buffers; a body is the
/// operations from the one after this up to `end`.
enum Op {
    case text(start: Int32, end: Int32)
    case variable(NameRef, escaped: Bool)
    case section(NameRef, inverted: Bool, end: Int32)
    /// A partial or parent tag; overrides passed to a parent follow it, up to `end`.
    case inclusion(index: Int32, end: Int32)
    /// A block outside a parent tag; its default content is the body.
    case block(index: Int32, end: Int32)
}

/// A tag name as a run of ``Program/keys``; an empty run is the implicit iterator `.`.
struct NameRef {
    let start: Int32
    let count: Int32
}

/// A name part with its hash computed at compile time, so looking it up in a
/// ``MustacheDictionary`` costs no hashing at render time.
struct HashedKey: Sendable {
    let string: String
    let hash: UInt64

    init(_ string: String) {
        self.string = string
        hash = HashedKey.hash(string)
    }

    /// FNV-1a: cheap for the short keys templates use, and only needs to spread keys of one
    /// dictionary, which is always compared in full after a hash match.
    static func hash(_ string: String) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in string.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return hash
    }
}

/// `{{>name}}` is a `{{<name}}` without overrides, so both are an inclusion.
final class Inclusion: Sendable {
    let name: String
    /// The whitespace in front of a standalone tag; `nil` when the tag shares its line.
    let indentation: [UInt8]?
    let overrides: [Override]
    let location: SourceLocation

    init(name: String, indentation: [UInt8]?, overrides: [Override], location: SourceLocation) {
        self.name = name
        self.indentation = indentation
        self.overrides = overrides
        self.location = location
    }
}

/// Content passed to a parent template for one of its blocks, with its own indentation removed.
struct Override: Sendable {
    let name: String
    /// Operations of the program that contains the parent tag.
    let start: Int32
    let end: Int32
}

/// `{{$name}}default{{/name}}` outside a parent tag: a place an override can fill.
struct Block: Sendable {
    let name: String
    /// Added in front of every line of the content, so overrides line up with this site.
    let indentation: [UInt8]
    /// Whether the opening tag stood on its own line, so the content starts on a fresh line and
    /// its default content was outdented; otherwise it continues the opening tag's line.
    let standalone: Bool
}
