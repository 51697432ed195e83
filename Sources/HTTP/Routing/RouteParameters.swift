/// Reading typed values out of a route's `:name` parameters: a malformed value is a page that
/// does not exist (404), never a default such as 0.
public enum RouteParameters {
    /// `text` as a positive integer id (at most 18 digits), or nil.
    public static func positiveID(_ text: String?) -> Int? {
        guard let text, !text.isEmpty, text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let value = Int(text), value > 0
        else { return nil }
        return value
    }
}

extension Request {
    /// Route parameter `name` as a positive integer id; anything else throws `notFound`.
    public func require(_ name: String, as type: Int.Type, notFound: HTTPError) throws(HTTPError) -> Int {
        guard let id = RouteParameters.positiveID(parameters[name]) else { throw notFound }
        return id
    }
}
