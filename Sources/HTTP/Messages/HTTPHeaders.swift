/// An ordered list of header fields with case-insensitive lookup.
///
/// Requests carry a handful of headers, so a linear scan over an array beats
/// hashing; names are compared ASCII-case-insensitively without allocating.
public struct HTTPHeaders: Sendable, Sequence {
    public private(set) var fields: [(name: String, value: String)] = []

    /// Room for what a response collects on its way out (a handler's one or two headers, then the
    /// security headers, cookies, the request id: about ten) and for a browser's request, so
    /// that the list is allocated once instead of regrown four times for every request.
    static let usualCount = 12

    /// Allocates nothing: the room is made by the first field added.
    public init() {}

    public init(_ fields: [(String, String)]) {
        self.fields.reserveCapacity(Swift.max(fields.count, Self.usualCount))
        for (name, value) in fields { self.fields.append((name: name, value: value)) }
    }

    /// The first value of `name`, or nil.
    public subscript(name: String) -> String? {
        for field in fields where asciiCaseInsensitiveEquals(field.name, name) {
            return field.value
        }
        return nil
    }

    /// Every value of `name`, in order.
    public func values(for name: String) -> [String] {
        fields.filter { asciiCaseInsensitiveEquals($0.name, name) }.map(\.value)
    }

    public func contains(_ name: String) -> Bool { self[name] != nil }

    public mutating func add(_ name: String, _ value: String) {
        if fields.capacity == 0 { fields.reserveCapacity(Self.usualCount) }
        fields.append((name: name, value: value))
    }

    /// Replaces every value of `name` with one value.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    public mutating func remove(_ name: String) {
        fields.removeAll { asciiCaseInsensitiveEquals($0.name, name) }
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        fields.makeIterator()
    }
}

/// Compares two strings byte by byte, folding ASCII letters only (header names are ASCII tokens).
@inlinable
func asciiCaseInsensitiveEquals(_ a: String, _ b: String) -> Bool {
    var a = a
    var b = b
    return a.withUTF8 { x in
        b.withUTF8 { y in
            guard x.count == y.count else { return false }
            for i in 0..<x.count where x[i] != y[i] {
                let lx = x[i] | 0x20
                guard lx == (y[i] | 0x20), lx >= 0x61, lx <= 0x7A else { return false }
            }
            return true
        }
    }
}
