import HTTP

/// A resumable POST's values as an action reads them: its route parameters, its form fields, and
/// at most one file. Made from the live request, or from a pending intent (its cookie or its
/// parked copy); the action decodes its own input from it the same way either way, so no request
/// is ever rebuilt to perform a resumed action.
struct KeptForm: Sendable {
    var parameters: [String: String]
    var fields: [(String, String)]
    var file: [UInt8]?

    init(parameters: [String: String], fields: [(String, String)], file: [UInt8]? = nil) {
        self.parameters = parameters
        self.fields = fields
        self.file = file
    }

    /// The first value of field `name`, or nil.
    subscript(_ name: String) -> String? {
        fields.first { $0.0 == name }?.1
    }

    /// Field `name`'s value, or "" when the form did not send it.
    func text(_ name: String) -> String { self[name] ?? "" }

    /// Route parameter `name` (the router fills every parameter of a matched route).
    func parameter(_ name: String) -> String { parameters[name] ?? "" }

    /// Route parameter `name` as a number: a malformed one is `notFound` (never 0).
    func require(_ name: String, as type: Int.Type, notFound: HTTPError) throws(HTTPError) -> Int {
        guard let id = RouteParameters.positiveID(parameters[name]) else { throw notFound }
        return id
    }

    /// Bytes of its field names and values: what the cookie and parking bounds count.
    var fieldBytes: Int { fields.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count } }
}
