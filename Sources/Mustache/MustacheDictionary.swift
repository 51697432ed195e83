/// The dictionary a template reads: string keys in insertion order, each stored with a hash
/// that template names also carry precomputed.
///
/// View-model dictionaries are small, so a lookup scans the stored hashes and compares one
/// string, instead of running `Dictionary`'s seeded SipHash over the key on every `{{name}}`;
/// large dictionaries add a hash index.
public struct MustacheDictionary: Sendable {
    private struct Entry: Sendable {
        let hash: UInt64
        let key: String
        var value: MustacheValue
    }

    /// Past this many entries a scan costs more than hashing the key.
    private static let scanLimit = 24

    private var entries: [Entry] = []
    private var index: [String: Int]?

    public init() {}

    public init(_ dictionary: [String: MustacheValue]) {
        entries.reserveCapacity(dictionary.count)
        for (key, value) in dictionary { self[key] = value }
    }

    public init(_ dictionary: [String: any MustacheConvertible]) {
        entries.reserveCapacity(dictionary.count)
        for (key, value) in dictionary { self[key] = value.mustacheValue }
    }

    public var count: Int { entries.count }
    public var isEmpty: Bool { entries.isEmpty }
    public var keys: [String] { entries.map(\.key) }

    public subscript(key: String) -> MustacheValue? {
        get { position(of: key, hash: HashedKey.hash(key)).map { entries[$0].value } }
        set {
            let hash = HashedKey.hash(key)
            switch (position(of: key, hash: hash), newValue) {
            case (let position?, let value?):
                entries[position].value = value
            case (let position?, nil):
                entries.remove(at: position)
                rebuildIndex()
            case (nil, let value?):
                entries.append(Entry(hash: hash, key: key, value: value))
                if index != nil {
                    index?[key] = entries.count - 1
                } else if entries.count > Self.scanLimit {
                    rebuildIndex()
                }
            case (nil, nil):
                break
            }
        }
    }

    @inline(__always)
    func value(for key: UnsafePointer<HashedKey>) -> MustacheValue? {
        if let index { return index[key.pointee.string].map { entries[$0].value } }
        return entries.withUnsafeBufferPointer { entries in
            let hash = key.pointee.hash
            for entry in entries where entry.hash == hash && entry.key == key.pointee.string {
                return entry.value
            }
            return nil
        }
    }

    @inline(__always)
    private func position(of key: String, hash: UInt64) -> Int? {
        if let index { return index[key] }
        var position = 0
        while position < entries.count {
            if entries[position].hash == hash && entries[position].key == key { return position }
            position += 1
        }
        return nil
    }

    private mutating func rebuildIndex() {
        guard entries.count > Self.scanLimit else {
            index = nil
            return
        }
        var index: [String: Int] = [:]
        index.reserveCapacity(entries.count)
        for (position, entry) in entries.enumerated() { index[entry.key] = position }
        self.index = index
    }
}

extension MustacheDictionary: Sequence {
    public func makeIterator() -> some IteratorProtocol<(key: String, value: MustacheValue)> {
        entries.lazy.map { (key: $0.key, value: $0.value) }.makeIterator()
    }
}

extension MustacheDictionary: ExpressibleByDictionaryLiteral {
    /// Values are existentials so that variables of any ``MustacheConvertible`` type can be
    /// written without wrapping (`"title": article.title`).
    public init(dictionaryLiteral elements: (String, any MustacheConvertible)...) {
        entries.reserveCapacity(elements.count)
        for (key, value) in elements { self[key] = value.mustacheValue }
    }
}
