extension MultipartForm {
    /// A `multipart/form-data` body holding `fields` and `files`, delimited by `boundary`, and the
    /// `Content-Type` that names it. The caller picks a boundary that cannot occur in the content
    /// (a random one). Names are written as given: they must not hold `"`, CR or LF.
    public static func encode(fields: [(String, String)], files: [File], boundary: String) -> (
        contentType: String, body: [UInt8]
    ) {
        var body: [UInt8] = []
        body.reserveCapacity(files.reduce(0) { $0 + $1.bytes.count } + fields.count * 128 + 1024)
        for (name, value) in fields {
            body += Array("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(name)\"\r\n\r\n".utf8)
            body += Array(value.utf8)
            body += [13, 10]
        }
        for file in files {
            body += Array(
                ("--\(boundary)\r\nContent-Disposition: form-data; name=\"\(file.name)\"; filename=\"\(file.filename)\"\r\n"
                    + "Content-Type: \(file.contentType ?? "application/octet-stream")\r\n\r\n").utf8)
            body += file.bytes
            body += [13, 10]
        }
        body += Array("--\(boundary)--\r\n".utf8)
        return ("multipart/form-data; boundary=\(boundary)", body)
    }
}
