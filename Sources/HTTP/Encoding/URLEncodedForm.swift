/// Name/value pairs from a query string or an `application/x-www-form-urlencoded` body.
///
/// Order and repeated names are kept; lookups take the first value.
public struct URLEncodedForm: Sendable, Sequence {
    public private(set) var pairs: [(name: String, value: String)] = []

    public init() {}

    public init(_ pairs: [(String, String)]) {
        self.pairs = pairs.map { (name: $0.0, value: $0.1) }
    }

    /// Parses `a=1&b=two+words&c=%C3%A9`. Throws 400 for a malformed escape or invalid UTF-8.
    public init(parsing bytes: UnsafeBufferPointer<UInt8>) throws(HTTPError) {
        var start = 0
        while start <= bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: "&") { end += 1 }
            if end > start {
                try appendPair(UnsafeBufferPointer(rebasing: bytes[start..<end]))
            }
            start = end + 1
        }
    }

    public init(parsing string: String) throws(HTTPError) {
        var string = string
        let result: Result<URLEncodedForm, HTTPError> = string.withUTF8 { buffer in
            do throws(HTTPError) { return .success(try URLEncodedForm(parsing: buffer)) } catch {
                return .failure(error)
            }
        }
        self = try result.get()
    }

    private mutating func appendPair(_ pair: UnsafeBufferPointer<UInt8>) throws(HTTPError) {
        let equals = pair.firstIndex(of: UInt8(ascii: "=")) ?? pair.count
        let rawName = UnsafeBufferPointer(rebasing: pair[0..<equals])
        let rawValue =
            equals < pair.count
            ? UnsafeBufferPointer(rebasing: pair[(equals + 1)...]) : UnsafeBufferPointer(start: nil, count: 0)
        guard let name = PercentDecoding.decode(rawName, plusAsSpace: true),
            let value = PercentDecoding.decode(rawValue, plusAsSpace: true)
        else {
            throw HTTPError(.badRequest, "The form or query contains invalid percent-encoding or invalid UTF-8.")
        }
        pairs.append((name: name, value: value))
    }

    /// The first value for `name`, or nil.
    public subscript(name: String) -> String? {
        for pair in pairs where pair.name == name { return pair.value }
        return nil
    }

    public func values(for name: String) -> [String] {
        pairs.filter { $0.name == name }.map(\.value)
    }

    public var isEmpty: Bool { pairs.isEmpty }

    public mutating func append(_ name: String, _ value: String) {
        pairs.append((name: name, value: value))
    }

    /// Encodes back to `a=1&b=two%20words`.
    public var encoded: String {
        pairs.map { PercentEncoding.encode($0.name) + "=" + PercentEncoding.encode($0.value) }
            .joined(separator: "&")
    }

    public func makeIterator() -> IndexingIterator<[(name: String, value: String)]> {
        pairs.makeIterator()
    }
}
