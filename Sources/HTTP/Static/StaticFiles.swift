import Synchronization
import TextSupport

#if canImport(Glibc)
    import Glibc
#endif

/// Serves files from one directory (`Public/`) for GET and HEAD.
///
/// Files are read once and kept in memory with their ETag and, for text types,
/// a gzip copy; a changed modification time or size reloads them. A request can
/// never reach outside the root: `..`, `.` and hidden segments, encoded slashes,
/// backslashes and NUL are refused, and the resolved real path (after symlinks)
/// must still lie inside the root's real path.
public final class StaticFiles: Sendable {
    public static let maximumFileSize = 8 << 20

    private let root: String
    private let gzip = Gzip(level: 9)
    private let cache = Mutex<[String: CachedFile]>([:])
    private let cacheControl: String

    /// Throws when `root` does not exist, so a misconfigured start fails at once.
    public init(root: String, cacheControl: String = "public, max-age=3600") throws {
        guard let resolved = realpath(root, nil) else {
            throw ServerError(description: "static file root \(root) does not exist")
        }
        self.root = String(cString: resolved)
        free(resolved)
        self.cacheControl = cacheControl
    }

    /// Answers for `relativePath`, the part of the URL after the static prefix, as decoded segments.
    public func response(for segments: [String], request: Request) throws -> Response {
        guard let file = try file(at: segments) else {
            throw HTTPError(.notFound, "There is no file at this address.")
        }
        let gzipped = file.gzipped != nil && Compression<Void>.acceptsGzip(request.headers["Accept-Encoding"])
        let etag = gzipped ? file.gzipETag : file.etag
        var headers = HTTPHeaders()
        headers.add("ETag", etag)
        headers.add("Cache-Control", cacheControl)
        headers.add("Content-Type", file.contentType)
        if file.gzipped != nil { headers.add("Vary", "Accept-Encoding") }

        if let candidates = request.headers["If-None-Match"], Self.matches(candidates, file: file) {
            return Response(status: .notModified, headers: headers)
        }
        if gzipped, let body = file.gzipped {
            headers.add("Content-Encoding", "gzip")
            return Response(status: .ok, headers: headers, body: body)
        }
        return Response(status: .ok, headers: headers, body: file.body)
    }

    private func file(at segments: [String]) throws -> CachedFile? {
        guard !segments.isEmpty, segments.allSatisfy(Self.isSafeSegment) else {
            throw HTTPError(.notFound, "There is no file at this address.")
        }
        let relative = segments.joined(separator: "/")
        let candidate = root + "/" + relative
        guard let resolvedPointer = realpath(candidate, nil) else { return nil }
        let resolved = String(cString: resolvedPointer)
        free(resolvedPointer)
        guard resolved.hasPrefix(root + "/") else { return nil }

        var info = stat()
        guard stat(resolved, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, info.st_size <= Self.maximumFileSize
        else { return nil }
        let version = FileVersion(
            size: Int(info.st_size), modified: Int(info.st_mtim.tv_sec), nanos: info.st_mtim.tv_nsec)
        if let cached = cache.withLock({ $0[relative] }), cached.version == version { return cached }

        guard let body = Self.readFile(resolved, expectedSize: version.size) else { return nil }
        let contentType = MediaTypes.forPath(relative)
        let gzipped = Compression<Void>.isCompressible(contentType) && body.count >= 256 ? gzip.compress(body) : nil
        let file = CachedFile(version: version, body: body, gzipped: gzipped, contentType: contentType)
        cache.withLock { $0[relative] = file }
        return file
    }

    /// A segment may not walk up, hide, or smuggle a separator or NUL.
    static func isSafeSegment(_ segment: String) -> Bool {
        guard !segment.isEmpty, segment != ".", segment != "..", !segment.hasPrefix(".") else { return false }
        return !segment.utf8.contains { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 }
    }

    static func matches(_ ifNoneMatch: String, file: CachedFile) -> Bool {
        for candidate in ifNoneMatch.split(separator: ",") {
            var tag = candidate.trimmingASCIIWhitespace()
            if tag == "*" { return true }
            if tag.hasPrefix("W/") { tag = tag.dropFirst(2) }
            if tag == file.etag || tag == file.gzipETag { return true }
        }
        return false
    }

    private static func readFile(_ path: String, expectedSize: Int) -> [UInt8]? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: expectedSize)
        var offset = 0
        while offset < expectedSize {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + offset, expectedSize - offset) }
            if count <= 0 { return nil }
            offset += count
        }
        return bytes
    }
}

struct FileVersion: Equatable {
    var size: Int
    var modified: Int
    var nanos: Int
}

struct CachedFile: Sendable {
    let version: FileVersion
    let body: [UInt8]
    let gzipped: [UInt8]?
    let contentType: String
    let etag: String
    let gzipETag: String

    init(version: FileVersion, body: [UInt8], gzipped: [UInt8]?, contentType: String) {
        self.version = version
        self.body = body
        self.gzipped = gzipped
        self.contentType = contentType
        let hash = fnv1a64(body)
        etag = "\"\(String(hash, radix: 16))\""
        gzipETag = "\"\(String(hash, radix: 16))-gz\""
    }
}

/// FNV-1a: a fast, stable content hash, good enough to tell file versions apart.
func fnv1a64(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash ^= UInt64(byte)
        hash = hash &* 0x0000_0100_0000_01B3
    }
    return hash
}
