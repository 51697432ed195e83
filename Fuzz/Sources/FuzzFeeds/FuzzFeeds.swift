import FuzzSupport

@testable import Herald

/// Atom, RSS 2.0 and JSON Feed parsing: a list of articles or a named error, never a crash.
///
/// It also checks what `FeedEncoding` promises the parsers (issue #14), since a broken promise would
/// not crash here but let libxml2 read something other than what the guards read: valid UTF-8, no
/// byte-order mark, no NUL, a declaration naming UTF-8, and nothing left to change on a second pass.
@_cdecl("FuzzFeeds_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        _ = try? FeedParser.parse(input, name: "fuzz")
        if let text = try? FeedEncoding.utf8Text(of: input) {
            precondition(String(validating: text, as: UTF8.self) != nil, "not UTF-8")
            precondition(!text.contains(0), "a NUL")
            precondition(!text.starts(with: [0xEF, 0xBB, 0xBF]), "a byte-order mark")
            if let declared = try? XMLDeclaration.parse(text[...]) {
                precondition(declared.encoding == "UTF-8", "a declaration not naming UTF-8")
            }
            precondition((try? FeedEncoding.utf8Text(of: text)) == text, "a second pass changes it")
        }
        return 0
    }
}
