import FuzzSupport
import Mustache

/// The template parser and renderer: any source either compiles or throws a positioned error.
private let context: MustacheValue = [
    "title": "<b>&\"'", "items": [1, 2, 3], "nested": ["a": ["b": "c"]], "flag": true, "empty": "",
]

@_cdecl("FuzzMustache_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in
        let source = String(decoding: bytes(data, size), as: UTF8.self)
        if let template = try? Template(source, path: "fuzz.mustache") {
            _ = try? template.render(context)
        }
        _ = try? TemplateLibrary(templates: ["page": source, "layout": "{{$content}}x{{/content}}"])
        return 0
    }
}
