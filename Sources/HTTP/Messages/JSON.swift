import Foundation

extension Response {
    /// `value` as JSON (`application/json`). Encoding our own plain types cannot fail in practice;
    /// if it did, the reader gets a 500 rather than half a document.
    public static func json(_ value: some Encodable, status: HTTPStatus = .ok) -> Response {
        guard let body = try? JSONEncoder().encode(value) else {
            return .text("500 Internal Server Error\n", status: .internalServerError)
        }
        return Response(
            status: status, headers: HTTPHeaders([("Content-Type", "application/json; charset=utf-8")]),
            body: Array(body))
    }
}

extension Request {
    /// The client asks for JSON rather than a page (a script's `fetch` with
    /// `Accept: application/json`); browsers' own navigations ask for HTML first.
    public var prefersJSON: Bool {
        guard let accept = headers["Accept"] else { return false }
        guard let json = accept.range(of: "application/json") else { return false }
        guard let html = accept.range(of: "text/html") else { return true }
        return json.lowerBound < html.lowerBound
    }
}
