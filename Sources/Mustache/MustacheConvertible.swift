/// A Swift type that can stand in a template context.
///
/// Conversion happens once, when the context is built, so the renderer only ever switches over
/// ``MustacheValue`` and never casts.
public protocol MustacheConvertible {
    var mustacheValue: MustacheValue { get }
}

extension MustacheValue: MustacheConvertible {
    public var mustacheValue: MustacheValue { self }

    public init(_ value: some MustacheConvertible) {
        self = value.mustacheValue
    }
}

extension String: MustacheConvertible {
    public var mustacheValue: MustacheValue { .string(self) }
}

extension Substring: MustacheConvertible {
    public var mustacheValue: MustacheValue { .string(String(self)) }
}

extension Bool: MustacheConvertible {
    public var mustacheValue: MustacheValue { .bool(self) }
}

extension Double: MustacheConvertible {
    public var mustacheValue: MustacheValue { .double(self) }
}

extension Float: MustacheConvertible {
    public var mustacheValue: MustacheValue { .double(Double(self)) }
}

extension MustacheConvertible where Self: BinaryInteger {
    /// Values beyond `Int` (large `UInt64`s) still print exactly, as text.
    public var mustacheValue: MustacheValue {
        if let value = Int(exactly: self) { .int(value) } else { .string(String(self)) }
    }
}

extension Int: MustacheConvertible {}
extension Int8: MustacheConvertible {}
extension Int16: MustacheConvertible {}
extension Int32: MustacheConvertible {}
extension Int64: MustacheConvertible {}
extension UInt: MustacheConvertible {}
extension UInt8: MustacheConvertible {}
extension UInt16: MustacheConvertible {}
extension UInt32: MustacheConvertible {}
extension UInt64: MustacheConvertible {}

extension Optional: MustacheConvertible where Wrapped: MustacheConvertible {
    public var mustacheValue: MustacheValue {
        switch self {
        case .some(let value): value.mustacheValue
        case .none: .null
        }
    }
}

extension Array: MustacheConvertible where Element: MustacheConvertible {
    public var mustacheValue: MustacheValue { .list(map(\.mustacheValue)) }
}

extension Dictionary: MustacheConvertible where Key == String, Value: MustacheConvertible {
    public var mustacheValue: MustacheValue {
        var dictionary = MustacheDictionary()
        for (key, value) in self { dictionary[key] = value.mustacheValue }
        return .dictionary(dictionary)
    }
}

// Literals make dictionary contexts read like JSON. Elements are existentials rather than
// `MustacheValue` so that plain variables (`"title": article.title`) need no wrapping; the price
// is that a heterogeneous literal nested inside another needs `as MustacheValue`.

extension MustacheDictionary: MustacheConvertible {
    public var mustacheValue: MustacheValue { .dictionary(self) }
}

extension MustacheValue: ExpressibleByDictionaryLiteral {
    public init(dictionaryLiteral elements: (String, any MustacheConvertible)...) {
        var dictionary = MustacheDictionary()
        for (key, value) in elements { dictionary[key] = value.mustacheValue }
        self = .dictionary(dictionary)
    }

    /// For contexts assembled in code, where a literal cannot be used.
    public init(_ dictionary: [String: any MustacheConvertible]) {
        self = .dictionary(MustacheDictionary(dictionary))
    }
}

// Inside those literals the contextual type is the existential, where `.object(viewModel)` or
// `.null` would not otherwise resolve. Disfavoured so that they never compete with the enum's
// own cases where the contextual type is `MustacheValue`.
extension MustacheConvertible where Self == MustacheValue {
    @_disfavoredOverload public static var null: MustacheValue { MustacheValue.null }

    @_disfavoredOverload public static func bool(_ value: Bool) -> MustacheValue {
        MustacheValue.bool(value)
    }

    @_disfavoredOverload public static func int(_ value: Int) -> MustacheValue {
        MustacheValue.int(value)
    }

    @_disfavoredOverload public static func double(_ value: Double) -> MustacheValue {
        MustacheValue.double(value)
    }

    @_disfavoredOverload public static func string(_ value: String) -> MustacheValue {
        MustacheValue.string(value)
    }

    @_disfavoredOverload public static func list(_ value: [MustacheValue]) -> MustacheValue {
        MustacheValue.list(value)
    }

    @_disfavoredOverload public static func dictionary(_ value: MustacheDictionary) -> MustacheValue {
        MustacheValue.dictionary(value)
    }

    @_disfavoredOverload public static func object(_ value: any MustacheObject) -> MustacheValue {
        MustacheValue.object(value)
    }
}

extension MustacheValue: ExpressibleByArrayLiteral {
    public init(arrayLiteral elements: any MustacheConvertible...) {
        self = .list(elements.map { $0.mustacheValue })
    }

    public init(_ list: [any MustacheConvertible]) {
        self = .list(list.map { $0.mustacheValue })
    }
}

extension MustacheValue: ExpressibleByStringInterpolation {
    public init(stringLiteral value: String) {
        self = .string(value)
    }
}

extension MustacheValue: ExpressibleByIntegerLiteral {
    public init(integerLiteral value: Int) {
        self = .int(value)
    }
}

extension MustacheValue: ExpressibleByFloatLiteral {
    public init(floatLiteral value: Double) {
        self = .double(value)
    }
}

extension MustacheValue: ExpressibleByBooleanLiteral {
    public init(booleanLiteral value: Bool) {
        self = .bool(value)
    }
}
