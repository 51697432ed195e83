import TestSupport
import Testing

@testable import HTTP

@Suite struct MultipartFormTests {
    private func parse(_ text: String, boundary: String = "XyZ") throws(HTTPError) -> MultipartForm {
        try MultipartForm(parsing: Array(text.utf8), boundary: boundary)
    }

    private func status(_ text: String, boundary: String = "XyZ") -> HTTPStatus? {
        do {
            _ = try parse(text, boundary: boundary)
            return nil
        } catch {
            return error.status
        }
    }

    @Test func fieldsAndFilesAsABrowserSendsThem() throws {
        var body = MultipartBody()
        body.field("title", "Zoë & co = 100%")
        body.field("body", "Line one\r\n--not a boundary\r\nLine three")
        body.field("title", "second")
        body.file("image", filename: "photo.jpg", contentType: "image/jpeg", [0xFF, 0xD8, 0xFF, 0x0D, 0x0A, 0x00])
        body.field("empty", "")
        let form = try MultipartForm(parsing: body.finished, boundary: body.boundary)
        #expect(form.fields["title"] == "Zoë & co = 100%")
        #expect(form.fields.values(for: "title") == ["Zoë & co = 100%", "second"])
        #expect(form.fields["body"] == "Line one\r\n--not a boundary\r\nLine three")
        #expect(form.fields["empty"] == "")
        #expect(form.fields["image"] == nil)
        #expect(form.files.count == 1)
        let image = try #require(form.file("image"))
        #expect(image.filename == "photo.jpg")
        #expect(image.contentType == "image/jpeg")
        #expect(image.bytes == [0xFF, 0xD8, 0xFF, 0x0D, 0x0A, 0x00])
    }

    @Test func preambleEpiloguePaddingAndQuotedBoundary() throws {
        let text =
            "ignored preamble\r\n--XyZ  \r\ncontent-disposition: FORM-DATA ; name=a\r\n\r\n1\r\n--XyZ\r\n"
            + "Content-Disposition: form-data; name=\"b\"; filename=\"\"\r\n\r\n\r\n--XyZ--\r\nignored epilogue"
        let form = try parse(text)
        #expect(form.fields["a"] == "1")
        // An empty file input ("no file chosen") is not a file.
        #expect(form.files.isEmpty)
        #expect(try MultipartForm.boundary(fromContentType: "multipart/form-data; boundary=\"a b:c\"") == "a b:c")
        #expect(try MultipartForm.boundary(fromContentType: "Multipart/Form-Data;charset=x;BOUNDARY=q") == "q")
    }

    @Test func aBoundaryFollowedByOtherTextIsContent() throws {
        let form = try parse(
            "--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n--XyZW\r\n--XyZ--")
        #expect(form.fields["a"] == "x\r\n--XyZW")
    }

    @Test func emptyFormAndNoParts() throws {
        #expect(try parse("--XyZ--\r\n").fields.isEmpty)
    }

    @Test(arguments: [
        "",  // no boundary at all
        "--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\nunterminated",
        "--XyZ\r\nContent-Disposition: form-data; name=a\r\n",  // ends inside headers
        "--XyZ\r\n\r\nno headers\r\n--XyZ--",
        "--XyZ\r\nContent-Type: text/plain\r\n\r\nno disposition\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: attachment; name=a\r\n\r\nx\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: form-data\r\n\r\nno name\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: form-data; name=\"a\r\n\r\nx\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: form-data; name=a; name=b\r\n\r\nx\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: form-data; name=a\r\nContent-Disposition: form-data; name=b\r\n\r\nx\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: form-data; name=a\r\n folded\r\n\r\nx\r\n--XyZ--",
        "--XyZ\r\nno colon here\r\n\r\nx\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: form-data; name=a\r\nContent-Transfer-Encoding: base64\r\n\r\neA==\r\n--XyZ--",
        "--XyZ\r\nContent-Disposition: form-data; name=a\r\n\r\nx\r\n--XyZ garbage\r\n",
    ])
    func malformedBodiesAre400(text: String) {
        #expect(status(text) == .badRequest)
    }

    @Test func invalidUTF8InATextFieldIs400ButNotInAFile() throws {
        var body = MultipartBody()
        body.file("f", filename: "a.bin", contentType: "application/octet-stream", [0xC3, 0x28])
        #expect(try MultipartForm(parsing: body.finished, boundary: body.boundary).files.first?.bytes == [0xC3, 0x28])
        body.field("t", [0xC3, 0x28])
        #expect(throws: HTTPError.self) { try MultipartForm(parsing: body.finished, boundary: body.boundary) }
    }

    @Test func limits() {
        var many = MultipartBody(boundary: "XyZ")
        for index in 0..<21 { many.field("f\(index)", "x") }
        #expect(status(String(decoding: many.finished, as: UTF8.self)) == .badRequest)

        var longName = MultipartBody(boundary: "XyZ")
        longName.field(String(repeating: "n", count: 201), "x")
        #expect(status(String(decoding: longName.finished, as: UTF8.self)) == .badRequest)

        let longHeader =
            "--XyZ\r\nContent-Disposition: form-data; name=a\r\nX-Pad: \(String(repeating: "p", count: 9000))\r\n\r\nx\r\n--XyZ--"
        #expect(status(longHeader) == .badRequest)

        var longField = MultipartBody(boundary: "XyZ")
        longField.field("body", String(repeating: "é", count: 262_145))
        #expect(status(String(decoding: longField.finished, as: UTF8.self)) == .payloadTooLarge)
        var fullField = MultipartBody(boundary: "XyZ")
        fullField.field("body", String(repeating: "x", count: 512 * 1024))
        #expect(status(String(decoding: fullField.finished, as: UTF8.self)) == nil)
    }

    @Test(arguments: ["", String(repeating: "b", count: 71), "ends in space ", "bad\"quote", "semi;colon", "é"])
    func badBoundariesAre400(boundary: String) {
        #expect(throws: HTTPError.self) { try MultipartForm(parsing: Array("--x--".utf8), boundary: boundary) }
        #expect(throws: HTTPError.self) {
            try MultipartForm.boundary(fromContentType: "multipart/form-data; boundary=\"\(boundary)\"")
        }
    }

    @Test func missingBoundaryParameterIs400() {
        #expect(throws: HTTPError.self) { try MultipartForm.boundary(fromContentType: "multipart/form-data") }
    }

    /// Hostile shapes that would be quadratic in a naive parser: a megabyte of near-delimiters
    /// and of carriage returns must parse (or fail) in well under a second even in a debug build.
    @Test func nearDelimitersAreLinear() throws {
        let boundary = String(repeating: "a", count: 70)
        let noise = String(repeating: "\r\n--" + String(repeating: "a", count: 69) + "b", count: 12_000)
        let text =
            "--\(boundary)\r\nContent-Disposition: form-data; name=f; filename=x\r\n\r\n\(noise)\r\n--\(boundary)--"
        let clock = ContinuousClock()
        let elapsed = try clock.measure {
            let form = try parse(text, boundary: boundary)
            #expect(form.files.first?.bytes.count == noise.utf8.count)
        }
        let carriageReturns = String(repeating: "\r", count: 1_000_000)
        let moreElapsed = clock.measure {
            _ = status("--XyZ\r\nContent-Disposition: form-data; name=f\r\n\r\n" + carriageReturns)
        }
        #expect(elapsed + moreElapsed < .seconds(2))
    }

    @Test func requestFormAcceptsEitherEncoding() throws {
        var body = MultipartBody()
        body.field("title", "Hello")
        body.file("image", filename: "a.png", contentType: "image/png", [1, 2, 3])
        let multipart = Request(
            method: .post, target: "/x", headers: HTTPHeaders([("Content-Type", body.contentType)]), body: body.finished
        )
        #expect(try multipart.form()["title"] == "Hello")
        #expect(try multipart.form()["image"] == nil)
        #expect(
            try multipart.files() == [
                MultipartForm.File(name: "image", filename: "a.png", contentType: "image/png", bytes: [1, 2, 3])
            ])
        #expect(try multipart.multipart().fields["title"] == "Hello")

        let urlencoded = Request(
            method: .post, target: "/x",
            headers: HTTPHeaders([("Content-Type", "application/x-www-form-urlencoded")]),
            body: Array("title=Hello".utf8))
        #expect(try urlencoded.form()["title"] == "Hello")
        #expect(try urlencoded.files().isEmpty)
        #expect(throws: HTTPError.self) { try urlencoded.multipart() }

        let json = Request(
            method: .post, target: "/x", headers: HTTPHeaders([("Content-Type", "application/json")]), body: [])
        #expect(throws: HTTPError.self) { try json.files() }

        let broken = Request(
            method: .post, target: "/x", headers: HTTPHeaders([("Content-Type", "multipart/form-data; boundary=q")]),
            body: Array("--q\r\n".utf8))
        do {
            _ = try broken.form()
            Issue.record("a truncated multipart body was accepted")
        } catch {
            #expect(error.status == .badRequest)
        }
    }
}
