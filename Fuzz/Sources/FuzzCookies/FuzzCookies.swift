import FuzzSupport
import HTTP

/// Cookie headers and the Accept-Encoding parser.
@_cdecl("FuzzCookies_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in
        let text = String(decoding: bytes(data, size), as: UTF8.self)
        let cookies = RequestCookies(header: text)
        _ = cookies["herald_session"]
        _ = Compression<Void>.acceptsGzip(text)
        return 0
    }
}
