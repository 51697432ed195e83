import FuzzSupport
import HTTP
import Herald

/// Multipart form parsing with a fixed boundary, and image recognition: anything in, a form,
/// an image size, a 4xx or a refusal out, never a crash; and whatever is accepted keeps the limits.
@_cdecl("FuzzMultipart_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        let limits = MultipartForm.Limits()
        if let form = try? MultipartForm(parsing: input, boundary: "XyZ") {
            precondition(form.fields.pairs.count + form.files.count <= limits.maxParts, "too many parts")
            for field in form.fields {
                precondition(field.name.utf8.count <= limits.maxNameBytes, "a name past the limit")
                precondition(field.value.utf8.count <= limits.maxTextFieldBytes, "a field past the limit")
            }
            for file in form.files {
                precondition(file.name.utf8.count <= limits.maxNameBytes, "a name past the limit")
                precondition(file.bytes.count < input.count, "a file larger than the body")
                checkImage(file.bytes)
            }
        }
        let request = Request(
            method: .post, target: "/",
            headers: HTTPHeaders([("Content-Type", "multipart/form-data; boundary=\"XyZ\"")]), body: input)
        _ = try? request.form()
        _ = try? request.files()
        _ = try? MultipartForm.boundary(fromContentType: String(decoding: input.prefix(120), as: UTF8.self))
        checkImage(input)
        return 0
    }
}

/// An image that is recognised has a size within the limits.
private func checkImage(_ bytes: [UInt8]) {
    guard let info = try? ImageInfo.recognise(bytes) else { return }
    let limits = ImageInfo.Limits()
    precondition(info.width > 0 && info.height > 0, "a zero size")
    precondition(info.width <= limits.maxSide && info.height <= limits.maxSide, "a side past the limit")
    precondition(info.width * info.height <= limits.maxPixels, "too many pixels")
}
