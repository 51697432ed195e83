import Foundation
import HTTP
import Mustache
import TestSupport
import Testing

@testable import Herald

/// SPEC "Newsroom (editors)": `image` uploads (JPEG, PNG or WebP by content, at most 5 MB),
/// `image_alt`, and GET `/media/{name}` with a strong ETag and a year of caching.
@Suite struct MediaTests {
    /// An image format the newsroom accepts, uploaded under a name and type that lie about it.
    enum Upload: String, CaseIterable, Sendable, CustomTestStringConvertible {
        case png, jpeg, webp

        var bytes: [UInt8] {
            switch self {
            case .png: PNGFile.rgb(width: 3, height: 2)
            case .jpeg: TestImages.jpeg(width: 40, height: 30)
            case .webp: TestImages.webpLossy(width: 300, height: 200)
            }
        }
        var size: (width: Int, height: Int) {
            switch self {
            case .png: (3, 2)
            case .jpeg: (40, 30)
            case .webp: (300, 200)
            }
        }
        /// The file name and type the browser claims: always another format's.
        var claimed: (filename: String, contentType: String) {
            switch self {
            case .png: ("photo.jpg", "image/jpeg")
            case .jpeg: ("upload.png", "image/png")
            case .webp: ("picture.jpeg", "image/jpeg")
            }
        }
        var fileExtension: String {
            switch self {
            case .png: "png"
            case .jpeg: "jpg"
            case .webp: "webp"
            }
        }
        var contentType: String { "image/" + rawValue }
        var testDescription: String { rawValue }
    }

    /// The article's `<img>` served from /media: the whole tag and the media name.
    private func mediaImage(in html: String) -> (tag: String, name: String)? {
        guard let tag = firstMatch(#"(<img [^>]*src="/media/[0-9a-f]{64}\.(?:png|jpg|webp)"[^>]*>)"#, in: html),
            let name = firstMatch(#"src="/media/([0-9a-f]{64}\.(?:png|jpg|webp))""#, in: tag)
        else { return nil }
        return (tag, name)
    }

    /// Uploads `image` with a new article (multipart, CSRF token from the form page).
    private func upload(
        _ editor: any HTTPTestClient, _ form: ArticleForm,
        image: (filename: String, contentType: String, bytes: [UInt8])?
    ) throws -> TestResponse {
        let token = try editor.formToken(on: "/editor/articles/new")
        return try editor.postMultipart("/editor/articles", form.multipart(csrfToken: token, image: image))
    }

    /// Images: the article shows `<img src="/media/HASH.EXT" width height alt>`, the extension and type taken from the content, not the file name.
    @Test(arguments: Upload.allCases)
    func anUploadedImageIsShownWithItsSizeAndAlt(kind: Upload) throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let alt = "A \"tiny\" <test> image & more"
        let created = try upload(
            editor, ArticleForm(title: "Pictured", body: "With a picture.", imageAlt: alt, action: "publish"),
            image: (kind.claimed.filename, kind.claimed.contentType, kind.bytes))
        try #require(created.status == 303, "\(created.text.prefix(400))")
        let id = try #require(editedArticleID(created["Location"]))
        let slug = try editor.articleSlug(id)
        let page = try app.client().get("/articles/\(slug)")
        #expect(page.status == 200)
        let image = try #require(mediaImage(in: page.text), "an <img> from /media")
        #expect(image.name.hasSuffix("." + kind.fileExtension))
        #expect(image.tag.contains("width=\"\(kind.size.width)\""))
        #expect(image.tag.contains("height=\"\(kind.size.height)\""))
        #expect(image.tag.contains("alt=\"\(escapeHTML(alt))\""))

        let media = try app.client().get("/media/\(image.name)")
        #expect(media.status == 200)
        #expect(media["Content-Type"] == kind.contentType)
        #expect(media["X-Content-Type-Options"] == "nosniff")
    }

    /// GET /media/{name}: a strong quoted ETag, `public, max-age=31536000, immutable`, nosniff, and 304 for If-None-Match.
    @Test func mediaIsServedWithAStrongETagAndAYearOfCaching() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let png = PNGFile.rgb(width: 3, height: 2)
        let created = try upload(
            editor, ArticleForm(title: "Cached picture", body: "Body.", imageAlt: "Three by two", action: "publish"),
            image: ("pixels.png", "image/png", png))
        let id = try #require(editedArticleID(created["Location"]), "\(created.status)")
        let page = try app.client().get("/articles/\(try editor.articleSlug(id))").text
        let name = try #require(mediaImage(in: page)?.name)
        #expect(name.hasSuffix(".png"))

        let reader = app.client()
        let media = try reader.get("/media/\(name)")
        #expect(media.status == 200)
        #expect(media["Content-Type"] == "image/png")
        #expect(media["Cache-Control"] == "public, max-age=31536000, immutable")
        #expect(media["X-Content-Type-Options"] == "nosniff")
        #expect(Array(media.body.prefix(8)) == PNGFile.signature)
        let etag = try #require(media["ETag"])
        #expect(!etag.hasPrefix("W/"), "strong")
        #expect(etag.count > 2 && etag.hasPrefix("\"") && etag.hasSuffix("\""), "quoted: \(etag)")

        let revalidated = try reader.get("/media/\(name)", headers: [("If-None-Match", etag)])
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
        let other = try reader.get("/media/\(name)", headers: [("If-None-Match", "\"something-else\"")])
        #expect(other.status == 200)
    }

    /// GET /media/{name}: an unknown name is 404 (a real one next to it is 200), and no path leads outside the media store.
    @Test func unknownMediaIsNotFound() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let created = try upload(
            editor, ArticleForm(title: "One picture", body: "Body.", imageAlt: "Pixels", action: "publish"),
            image: ("p.png", "image/png", PNGFile.rgb(width: 3, height: 2)))
        let id = try #require(editedArticleID(created["Location"]), "\(created.status)")
        let name = try #require(
            mediaImage(in: try app.client().get("/articles/\(try editor.articleSlug(id))").text)?.name)
        let client = app.client()
        #expect(try client.get("/media/\(name)").status == 200)

        let hash = name.prefix(64)
        let otherHash = String(hash.dropLast()) + (hash.last == "0" ? "1" : "0")
        #expect(try client.get("/media/\(otherHash).png").status == 404)
        #expect(try client.get("/media/" + String(repeating: "0", count: 64) + ".png").status == 404)
        #expect(try client.get("/media/" + String(repeating: "a", count: 64) + ".jpg").status == 404)
        #expect(try client.get("/media/nothing-here.png").status == 404)
        for path in ["/media/..%2Fherald.sqlite3", "/media/%2E%2E%2F%2E%2E%2Fetc%2Fpasswd", "/media/..%2Fsecret.key"] {
            let response = try client.get(path)
            #expect(response.status == 404 || response.status == 400, "\(path): \(response.status)")
        }
    }

    /// Images: what is not a JPEG, PNG or WebP by content (HTML named x.png or x.jpg, SVG, GIF, a bare signature) is 422 `image-error`; nothing stored.
    @Test func anUploadThatIsNotAnAcceptedImageIsRefused() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let html = Array("<!doctype html><html><body><script>alert(document.cookie)</script></body></html>".utf8)
        let svg = Array(
            #"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect width="3" height="2"/></svg>"#.utf8)
        let gif = Array("GIF89a".utf8) + [3, 0, 2, 0, 0, 0, 0] + [0x3B]
        let hostile: [(String, String, [UInt8])] = [
            ("x.png", "image/png", html), ("x.jpg", "image/jpeg", html), ("x.svg", "image/svg+xml", svg),
            ("x.png", "image/png", svg), ("x.gif", "image/gif", gif), ("x.png", "image/png", PNGFile.signature),
            ("x.txt", "text/plain", Array("just some text".utf8)),
        ]
        for (filename, type, bytes) in hostile {
            let response = try upload(
                editor, ArticleForm(title: "Hostile upload", body: "Body kept.", imageAlt: "Alt", action: "publish"),
                image: (filename, type, bytes))
            try #require(response.status == 422, "\(filename) \(type)")
            #expect(hasFieldError("image", in: response.text), "\(filename) \(type)")
            #expect(response.text.contains("value=\"Hostile upload\""), "the form comes back filled in")
            #expect(!response.text.contains("<script>alert(document.cookie)"))
        }
        #expect(try editor.deskRows().isEmpty, "nothing stored")
    }

    /// Images: a PNG whose IHDR declares 100000×100000 pixels (a decompression bomb) is 422; nothing stored.
    @Test func aDecompressionBombIsRefusedByItsDeclaredSize() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let bomb = PNGFile.bomb(width: 100_000, height: 100_000)
        #expect(bomb.count < 200)
        let response = try upload(
            editor, ArticleForm(title: "Bomb", body: "Body.", imageAlt: "Alt", action: "save"),
            image: ("bomb.png", "image/png", bomb))
        try #require(response.status == 422)
        #expect(hasFieldError("image", in: response.text))
        #expect(try editor.deskRows().isEmpty)
    }

    /// image_alt is required (1–300) with an uploaded image: missing or too long is 422 `image_alt-error`; nothing stored.
    @Test func anImageNeedsItsAltText() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        for alt in ["", String(repeating: "a", count: 301)] {
            let response = try upload(
                editor, ArticleForm(title: "Alt-less", body: "Body.", imageAlt: alt, action: "publish"),
                image: ("p.png", "image/png", PNGFile.rgb(width: 3, height: 2)))
            try #require(response.status == 422, "alt of \(alt.count) characters")
            #expect(hasFieldError("image_alt", in: response.text), "alt of \(alt.count) characters")
            #expect(response.text.contains("value=\"Alt-less\""))
        }
        // Leaving the field out altogether is the same as leaving it empty.
        var body = MultipartBody()
        body.field("csrf_token", try editor.formToken(on: "/editor/articles/new"))
        for (name, value) in ArticleForm(title: "No alt field", body: "Body.").fields where name != "image_alt" {
            body.field(name, value)
        }
        body.file("image", filename: "p.png", contentType: "image/png", PNGFile.rgb(width: 3, height: 2))
        let missing = try editor.postMultipart("/editor/articles", body)
        #expect(missing.status == 422)
        #expect(hasFieldError("image_alt", in: missing.text))
        #expect(try editor.deskRows().isEmpty)
        // 300 characters is fine.
        let longest = try upload(
            editor, ArticleForm(title: "Long alt", body: "Body.", imageAlt: String(repeating: "a", count: 300)),
            image: ("p.png", "image/png", PNGFile.rgb(width: 3, height: 2)))
        #expect(longest.status == 303)
    }

    /// image / image_alt on an existing article: saving without choosing a file keeps the image; its alt stays required; a new upload replaces it.
    @Test func anAttachedImageIsKeptReplacedAndStillNeedsAlt() throws {
        let app = try TestApp(server: false, demo: false)
        let editor = try app.editor()
        let form = ArticleForm(title: "Photo story", body: "Body.", imageAlt: "First picture", action: "publish")
        let created = try upload(editor, form, image: ("first.png", "image/png", PNGFile.rgb(width: 3, height: 2)))
        let id = try #require(editedArticleID(created["Location"]), "\(created.status)")
        let slug = try editor.articleSlug(id)
        let first = try #require(mediaImage(in: try app.client().get("/articles/\(slug)").text))

        // The edit form submitted as a browser does when no new file is chosen: an empty file part.
        var edit = form
        edit.body = "Body, edited."
        edit.imageAlt = "First picture, described better"
        let kept = try editor.postMultipart(
            "/editor/articles/\(id)", edit.multipart(csrfToken: try editor.formToken(on: "/editor/articles/\(id)")))
        #expect(kept.status == 303)
        let afterKeep = try #require(mediaImage(in: try app.client().get("/articles/\(slug)").text), "still there")
        #expect(afterKeep.name == first.name)
        #expect(afterKeep.tag.contains("alt=\"First picture, described better\""))

        var noAlt = edit
        noAlt.imageAlt = ""
        let refused = try editor.postMultipart(
            "/editor/articles/\(id)", noAlt.multipart(csrfToken: try editor.formToken(on: "/editor/articles/\(id)")))
        #expect(refused.status == 422)
        #expect(hasFieldError("image_alt", in: refused.text))
        #expect(try app.client().get("/articles/\(slug)").text.contains("alt=\"First picture, described better\""))

        var replace = edit
        replace.imageAlt = "Second picture"
        let replaced = try editor.postMultipart(
            "/editor/articles/\(id)",
            replace.multipart(
                csrfToken: try editor.formToken(on: "/editor/articles/\(id)"),
                image: ("second.png", "image/png", PNGFile.rgb(width: 5, height: 4))))
        #expect(replaced.status == 303)
        let second = try #require(mediaImage(in: try app.client().get("/articles/\(slug)").text))
        #expect(second.name != first.name)
        #expect(second.tag.contains("width=\"5\"") && second.tag.contains("height=\"4\""))
        #expect(second.tag.contains("alt=\"Second picture\""))
        #expect(try app.client().get("/media/\(second.name)").status == 200)
    }

    /// image at most 5 MB: a PNG of exactly 5*1024*1024 bytes is accepted over a real socket, multipart overhead and all.
    @Test func anImageOfExactlyFiveMegabytesIsAccepted() throws {
        let app = try TestApp(demo: false)
        let editor = try app.editor()
        let png = PNGFile.rgb(width: 1000, height: 1600, totalBytes: 5 * 1024 * 1024)
        #expect(png.count == 5 * 1024 * 1024)
        let response = try upload(
            editor,
            ArticleForm(title: "Big but allowed", body: "Body.", imageAlt: "A large picture", action: "publish"),
            image: ("large.png", "image/png", png))
        #expect(response.status == 303, "\(response.status) \(response.text.prefix(300))")
        let id = try #require(editedArticleID(response["Location"]))
        let image = try #require(mediaImage(in: try app.client().get("/articles/\(try editor.articleSlug(id))").text))
        #expect(image.tag.contains("width=\"1000\"") && image.tag.contains("height=\"1600\""))
        #expect(try app.client().get("/media/\(image.name)").status == 200)
    }

    /// image at most 5 MB: a 6 MB image sent to a real server is refused (413 or 422), new or on an existing article, and nothing is stored.
    @Test func aSixMegabyteImageIsRefusedAndNothingStored() throws {
        let app = try TestApp(demo: false)
        let editor = try app.editor()
        let id = try editor.newArticle(ArticleForm(title: "Without a picture", body: "Body."))
        let png = PNGFile.rgb(width: 1024, height: 2048)
        #expect(png.count > 6 * 1024 * 1024)
        for path in ["/editor/articles", "/editor/articles/\(id)"] {
            let token = try editor.formToken(on: "/editor/articles/new")
            let body = ArticleForm(title: "Far too big", body: "Body.", imageAlt: "Huge", action: "publish")
                .multipart(csrfToken: token, image: ("huge.png", "image/png", png))
            let status = try postOverSocket(
                port: app.port, path: path,
                headers: [("Cookie", cookieHeader(editor)), ("Content-Type", body.contentType)], body: body.finished)
            #expect(status == 413 || status == 422, "\(path): \(status)")
        }
        #expect(try editor.deskRows().map(\.id) == [id], "nothing stored")
        let page = try editor.get("/editor/articles/\(id)").text
        #expect(page.contains("value=\"Without a picture\""))
        #expect(!page.contains("/media/"))
        #expect(!(try app.client().get("/").text.contains("Far too big")))
    }
}
