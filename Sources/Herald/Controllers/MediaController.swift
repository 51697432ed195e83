import HTTP
import TextSupport

/// `GET /media/{sha256}.{ext}`: uploaded images, from the database, cached for a year. The name
/// is the content's hash, so a name never changes meaning: the ETag is the hash, and a browser
/// holding it need not ask again (`immutable`).
struct MediaController: Sendable {
    let media: MediaLibrary

    func addRoutes(to router: inout Router<RequestContext>) {
        router.get("/media/:name") { request, _ in try file(request) }
    }

    static let noSuchImage = HTTPError(.notFound, "There is no image at this address.")

    func file(_ request: Request) throws -> Response {
        let name = request.parameters["name"] ?? ""
        guard let hash = MediaPaths.hash(ofName: name) else { throw Self.noSuchImage }
        let etag = "\"\(hash)\""
        guard let file = try media.image(named: name) else { throw Self.noSuchImage }
        var headers = HTTPHeaders()
        headers.add("ETag", etag)
        headers.add("Cache-Control", "public, max-age=31536000, immutable")
        headers.add("Content-Type", file.contentType)
        // SecurityHeaders sends nosniff on every response; an image is where it matters most.
        if let candidates = request.headers["If-None-Match"], Self.matches(candidates, etag: etag) {
            return Response(status: .notModified, headers: headers)
        }
        return Response(status: .ok, headers: headers, body: file.bytes)
    }

    private static func matches(_ ifNoneMatch: String, etag: String) -> Bool {
        ifNoneMatch.split(separator: ",").contains { candidate in
            let tag = candidate.trimmingASCIIWhitespace()
            return tag == "*" || tag == etag || tag == "W/" + etag
        }
    }
}

/// Where images are served, in one place.
enum MediaPaths {
    static let extensions: Set<Substring> = ["jpg", "png", "webp"]

    static func media(_ name: String) -> String { "/media/\(name)" }

    /// The hash in a well-formed media name (64 lowercase hex digits, a dot, a known extension);
    /// nil for anything else, which is never looked up.
    static func hash(ofName name: String) -> Substring? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].utf8.count == 64, extensions.contains(parts[1]),
            parts[0].utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return parts[0]
    }
}
