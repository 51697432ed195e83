import FuzzSupport
import HTTP

/// Form and query decoding, and request-target parsing: anything in, a value or a 400 out.
@_cdecl("FuzzForm_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        _ = input.withUnsafeBufferPointer { try? URLEncodedForm(parsing: $0) }
        let text = String(decoding: input, as: UTF8.self)
        let request = Request(method: .post, target: "/" + text, body: input)
        _ = try? request.form()
        _ = LocalPath.validated(text)
        return 0
    }
}
