import Foundation
import HTTP
import Mustache
import TestSupport

@testable import Herald

#if canImport(Glibc)
    import Glibc
#endif

// Helpers for the newsroom suites (SPEC, "Newsroom (editors)"): the article form as a browser
// fills it in, the editor's desk read from its HTML hooks, and image files built byte by byte.

/// The article form's fields as a browser submits them: every text field, empty or not, and the
/// button that was pressed (`action`; nil leaves it out, which means "save").
struct ArticleForm {
    var title = "A headline"
    var summary = ""
    var section = ""
    var byline = ""
    var body = "Some *text*."
    var imageAlt = ""
    var publishAt = ""
    var action: String? = "save"

    var fields: [(String, String)] {
        var fields = [
            ("title", title), ("summary", summary), ("section", section), ("byline", byline), ("body", body),
            ("image_alt", imageAlt), ("publish_at", publishAt),
        ]
        if let action { fields.append(("action", action)) }
        return fields
    }

    /// The same fields as `multipart/form-data`. `image` is the chosen file; with none, a browser
    /// still sends the file input as an empty part with an empty file name (`emptyFilePart`).
    func multipart(
        csrfToken: String?, image: (filename: String, contentType: String, bytes: [UInt8])? = nil,
        emptyFilePart: Bool = true
    ) -> MultipartBody {
        var body = MultipartBody()
        if let csrfToken { body.field("csrf_token", csrfToken) }
        for (name, value) in fields { body.field(name, value) }
        if let image {
            body.file("image", filename: image.filename, contentType: image.contentType, image.bytes)
        } else if emptyFilePart {
            body.file("image", filename: "", contentType: "application/octet-stream", [])
        }
        return body
    }
}

/// One row of the editor's desk: `<tr data-article-id="ID" data-article-state="STATE">…</tr>`.
struct DeskRow: Equatable {
    let id: String
    let state: String
    let html: String
}

extension TestApp {
    /// A new browser logged in as `name`, who has been given the editor role.
    func editor(_ name: String = "editor") throws -> any HTTPTestClient {
        let client = try reader(name)
        _ = try app.accounts.change(.editor, of: name, granted: true)
        return client
    }

    /// A new browser logged in as `name`, a reader with no role.
    func reader(_ name: String) throws -> any HTTPTestClient {
        let client = client()
        let registered = try client.register(name)
        guard registered.status == 303 else { throw TestClientError("registering \(name) gave \(registered.status)") }
        return client
    }
}

extension HTTPTestClient {
    /// POSTs `body` as `multipart/form-data`.
    func postMultipart(_ path: String, _ body: MultipartBody, headers: [(String, String)] = []) throws
        -> TestResponse
    {
        try request("POST", path, headers: [("Content-Type", body.contentType)] + headers, body: body.finished)
    }

    /// Submits the new-article form (urlencoded) with the CSRF token the form page carries.
    func createArticle(_ form: ArticleForm) throws -> TestResponse {
        let token = try formToken(on: "/editor/articles/new")
        return try post("/editor/articles", form: [("csrf_token", token)] + form.fields)
    }

    /// Creates an article and returns its id; throws unless the answer is the 303 to its edit page.
    func newArticle(_ form: ArticleForm) throws -> String {
        let response = try createArticle(form)
        guard response.status == 303, let id = editedArticleID(response["Location"]) else {
            throw TestClientError(
                "creating “\(form.title)” gave \(response.status) \(response["Location"] ?? "") "
                    + "\(response.text.prefix(300))")
        }
        return id
    }

    /// Submits the edit form of article `id` (urlencoded) with the token the edit page carries.
    func saveArticle(_ id: String, _ form: ArticleForm) throws -> TestResponse {
        let token = try formToken(on: "/editor/articles/\(id)")
        return try post("/editor/articles/\(id)", form: [("csrf_token", token)] + form.fields)
    }

    /// The slug the edit page links to (`href="/articles/SLUG"`).
    func articleSlug(_ id: String) throws -> String {
        let page = try get("/editor/articles/\(id)")
        guard let slug = firstMatch(#"href="/articles/([^"/?#]+)""#, in: page.text) else {
            throw TestClientError("no link to the article on /editor/articles/\(id) (status \(page.status))")
        }
        return slug
    }

    /// The rows of the desk (`/editor`, or `/editor?page=N`), in page order.
    func deskRows(page: Int? = nil) throws -> [DeskRow] {
        let response = try get(page.map { "/editor?page=\($0)" } ?? "/editor")
        guard response.status == 200 else { throw TestClientError("the desk answered \(response.status)") }
        return HeraldTests.deskRows(in: response.text)
    }
}

func deskRows(in html: String) -> [DeskRow] {
    captureGroups(#"(?s)<tr data-article-id="([^"]+)" data-article-state="([^"]+)"[^>]*>(.*?)</tr>"#, in: html)
        .map { DeskRow(id: $0[0], state: $0[1], html: $0[2]) }
}

/// The article id in a `Location: /editor/articles/ID`.
func editedArticleID(_ location: String?) -> String? {
    location.flatMap { firstMatch(#"^/editor/articles/([^/?#]+)$"#, in: $0) }
}

/// Every match of `pattern`, each as the list of its capture groups.
func captureGroups(_ pattern: String, in text: String) -> [[String]] {
    guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
    return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).map { match in
        (1..<match.numberOfRanges).map { index in
            Range(match.range(at: index), in: text).map { String(text[$0]) } ?? ""
        }
    }
}

/// The text of the flash message (`<p class="flash" role="status">`), if the page has one.
func flashText(in html: String) -> String? {
    firstMatch(#"(?s)<p class="flash" role="status">(.*?)</p>"#, in: html)
}

/// Whether the page carries the per-field message `<p class="form-error" id="FIELD-error">`.
func hasFieldError(_ field: String, in html: String) -> Bool {
    guard let tag = firstMatch(#"(<p [^>]*id="\#(field)-error"[^>]*>)"#, in: html) else { return false }
    return tag.contains("class=\"form-error\"")
}

/// The body preview of an edit page (`<section class="preview" data-preview>`), or nil.
func previewSection(in html: String) -> String? {
    firstMatch(#"(?s)<section class="preview" data-preview[^>]*>(.*?)</section>"#, in: html)
}

/// The header's list of sections (`<nav class="sections"…>`); empty when the page has none.
func sectionsNav(in html: String) -> String {
    firstMatch(#"(?s)(<nav class="sections".*?</nav>)"#, in: html) ?? ""
}

/// The page without the header's list of sections, to look at what the article itself links to.
func withoutSectionsNav(_ html: String) -> String {
    let nav = sectionsNav(in: html)
    return nav.isEmpty ? html : html.replacingOccurrences(of: nav, with: "")
}

/// The Atom `<entry>` elements whose text contains `needle`.
func atomEntries(containing needle: String, in feed: String) -> [String] {
    matches(of: #"(?s)<entry>(.*?)</entry>"#, in: feed).filter { $0.contains(needle) }
}

/// A Unix time as ISO 8601 in UTC, `2026-12-01T10:00:00Z` (or without seconds and zone,
/// `2026-12-01T10:00`, as a `datetime-local` input sends it).
func iso8601(_ time: Int, withZone: Bool = true) -> String {
    let formatter = DateFormatter()
    formatter.locale = Locale(identifier: "en_US_POSIX")
    formatter.timeZone = TimeZone(identifier: "UTC")
    formatter.dateFormat = withZone ? "yyyy-MM-dd'T'HH:mm:ss'Z'" : "yyyy-MM-dd'T'HH:mm"
    return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(time)))
}

/// Markdown prose of exactly `count` characters (ASCII words and paragraph breaks, varied so it
/// is not one repeated token), ending with `marker`.
func longMarkdownBody(count: Int, marker: String) -> String {
    let words = [
        "harbour", "council", "budget", "river", "evening", "ledger", "transit", "orchard", "signal", "quarry",
        "lantern", "ferry", "meadow", "archive", "verdict", "harvest", "bridge", "tunnel", "census", "granite",
    ]
    var text = ""
    var index = 0
    let room = count - marker.utf8.count - 1
    while text.utf8.count < room {
        let word = words[(index * 7 + index / 20) % words.count] + String(index % 97)
        text += text.isEmpty ? word : (index % 120 == 0 ? "\n\n" : " ") + word
        index += 1
    }
    text = String(text.utf8.prefix(room))!
    while text.last == " " || text.last == "\n" { text.removeLast() }
    text += String(repeating: "x", count: room - text.utf8.count)
    return text + " " + marker
}

/// PNG files built byte by byte with correct CRCs and a zlib stream of stored blocks, so they
/// are real images any decoder accepts (no encoder library needed).
enum PNGFile {
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private static let crcTable: [UInt32] = (0..<256).map { index -> UInt32 in
        var value = UInt32(index)
        for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
        return value
    }

    /// CRC-32 (ISO 3309, as PNG and zlib use it).
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes { crc = crcTable[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8) }
        return crc ^ 0xFFFF_FFFF
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        var start = 0
        while start < bytes.count {
            let end = min(bytes.count, start + 5552)
            for byte in bytes[start..<end] {
                a &+= UInt32(byte)
                b &+= a
            }
            a %= 65521
            b %= 65521
            start = end
        }
        return b << 16 | a
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let typed = Array(type.utf8) + data
        return be32(UInt32(data.count)) + typed + be32(crc32(typed))
    }

    /// A zlib stream holding `raw` in stored (uncompressed) deflate blocks.
    static func zlibStored(_ raw: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x78, 0x01]
        var start = 0
        repeat {
            let end = min(raw.count, start + 65_535)
            let length = UInt16(end - start)
            out.append(end == raw.count ? 1 : 0)
            out += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8(~length >> 8)]
            out += raw[start..<end]
            start = end
        } while start < raw.count
        return out + be32(adler32(raw))
    }

    static func ihdr(width: Int, height: Int) -> [UInt8] {
        // 8 bits per sample, colour type 2 (RGB), deflate, filter method 0, no interlace.
        chunk("IHDR", be32(UInt32(width)) + be32(UInt32(height)) + [8, 2, 0, 0, 0])
    }

    /// A complete RGB PNG of `width`×`height` pixels (each row: filter byte 0, then RGB triples),
    /// padded with a `tEXt` comment to exactly `totalBytes` when given.
    static func rgb(width: Int, height: Int, totalBytes: Int) -> [UInt8] {
        let plain = rgb(width: width, height: height)
        let keyword = Array("Comment".utf8) + [0]
        let padding = totalBytes - plain.count - 12 - keyword.count
        precondition(padding >= 0, "\(width)×\(height) is already larger than \(totalBytes) bytes")
        let comment = chunk("tEXt", keyword + [UInt8](repeating: UInt8(ascii: "z"), count: padding))
        let headerEnd = signature.count + 25
        return Array(plain[..<headerEnd]) + comment + Array(plain[headerEnd...])
    }

    /// A complete RGB PNG of `width`×`height` pixels (each row: filter byte 0, then RGB triples).
    static func rgb(width: Int, height: Int) -> [UInt8] {
        var raw: [UInt8] = []
        raw.reserveCapacity(height * (1 + 3 * width))
        for y in 0..<height {
            raw.append(0)
            for x in 0..<width {
                raw += [UInt8((x * 37 + y * 11) & 0xFF), UInt8((x * 5 + y * 71) & 0xFF), UInt8((x ^ y) & 0xFF)]
            }
        }
        return signature + ihdr(width: width, height: height) + chunk("IDAT", zlibStored(raw)) + chunk("IEND", [])
    }

    /// What a decompression bomb looks like from outside: a well-formed file of a few dozen bytes
    /// whose IHDR declares `width`×`height` pixels.
    static func bomb(width: Int, height: Int) -> [UInt8] {
        signature + ihdr(width: width, height: height) + chunk("IDAT", zlibStored([UInt8](repeating: 0, count: 64)))
            + chunk("IEND", [])
    }
}

/// Sends one POST over a new socket the way an uploading browser meets a server that may refuse
/// a declared length up front: the head first, then, unless the server has already answered
/// (413, before reading the body), the body. Returns the status the server gave.
func postOverSocket(port: Int, path: String, headers: [(String, String)], body: [UInt8]) throws -> Int {
    let connection = try RawHTTPConnection(port: port, receiveTimeoutSeconds: 30)
    var head = "POST \(path) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
    for (name, value) in headers { head += "\(name): \(value)\r\n" }
    head += "Content-Length: \(body.count)\r\n\r\n"
    try connection.send(head)
    let early = connection.receiveUntilClosed(within: 0.5)
    if !early.bytes.isEmpty {
        let line = String(decoding: early.bytes.prefix(64), as: UTF8.self)
        guard let status = line.split(separator: " ").dropFirst().first.flatMap({ Int($0) }) else {
            throw TestClientError("bad status line: \(line)")
        }
        return status
    }
    var timeout = timeval(tv_sec: 30, tv_usec: 0)
    setsockopt(connection.fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    // A server may stop reading part-way and answer; what it answered is what counts.
    try? connection.send(body)
    return try connection.readResponse().status
}

/// The `Cookie` header a browser would send with `client`'s cookies.
func cookieHeader(_ client: any HTTPTestClient) -> String {
    client.cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ")
}
