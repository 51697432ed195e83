/// Builds a `multipart/form-data` body the way a browser does, for tests.
public struct MultipartBody {
    public let boundary: String
    public private(set) var bytes: [UInt8] = []

    public init(boundary: String = "----HeraldTestBoundary7MA4YWxkTrZu0gW") {
        self.boundary = boundary
    }

    /// The request's `Content-Type` header value.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    public mutating func field(_ name: String, _ value: String) {
        field(name, Array(value.utf8))
    }

    public mutating func field(_ name: String, _ value: [UInt8]) {
        bytes += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8)
        bytes += value
        bytes += Array("\r\n".utf8)
    }

    public mutating func file(_ name: String, filename: String, contentType: String, _ content: [UInt8]) {
        bytes += Array(
            ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"; filename=\"\(filename)\"\r\n"
                + "Content-Type: \(contentType)\r\n\r\n").utf8)
        bytes += content
        bytes += Array("\r\n".utf8)
    }

    /// The body with its closing delimiter.
    public var finished: [UInt8] { bytes + Array("--\(boundary)--\r\n".utf8) }
}
