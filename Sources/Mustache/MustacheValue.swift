/// A value a template can read. See the overview on ``Template`` for how to build one.
public enum MustacheValue: Sendable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case list([MustacheValue])
    case dictionary(MustacheDictionary)
    /// Indirect so that the rare object case does not widen every other value to an
    /// existential's five words.
    indirect case object(any MustacheObject)

    /// Follows mustache.js, which template authors already know: `null`, `false`, `0`, `""` and
    /// `[]` hide a section and show an inverted one; everything else, `{}` included, shows it.
    public var isTruthy: Bool {
        switch self {
        case .null: false
        case .bool(let value): value
        case .int(let value): value != 0
        case .double(let value): value != 0 && !value.isNaN
        case .string(let value): !value.isEmpty
        case .list(let items): !items.isEmpty
        case .dictionary, .object: true
        }
    }

    /// One step of name resolution. `nil` means "no such key here", which lets the context stack
    /// keep looking further down; a present `.null` stops the search.
    @inline(__always)
    func member(_ key: UnsafePointer<HashedKey>) -> MustacheValue? {
        switch self {
        case .dictionary(let dictionary): dictionary.value(for: key)
        case .object(let object): object.value(forKey: key.pointee.string)
        default: nil
        }
    }
}

/// A view model the renderer asks for keys one at a time, so that nothing is computed or copied
/// for keys a template never reads and no reflection is needed.
///
/// ```swift
/// struct ArticleView: MustacheObject {
///     let article: Article
///     func value(forKey key: String) -> MustacheValue? {
///         switch key {
///         case "title": .string(article.title)
///         case "author": .object(AuthorView(article.author))
///         case "paragraphs": article.paragraphs.mustacheValue
///         default: nil
///         }
///     }
/// }
/// ```
public protocol MustacheObject: MustacheConvertible, Sendable {
    /// Returns `nil` for keys the object does not have so that outer contexts are searched.
    func value(forKey key: String) -> MustacheValue?
}

extension MustacheObject {
    public var mustacheValue: MustacheValue { .object(self) }
}
