import FuzzSupport
import Herald

/// Atom, RSS 2.0 and JSON Feed parsing: a list of articles or a named error, never a crash.
@_cdecl("FuzzFeeds_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in
        _ = try? FeedParser.parse(bytes(data, size), name: "fuzz")
        return 0
    }
}
