import Foundation
import FuzzSupport

@testable import Herald

/// The intent cookie decoder and verifier: tampered, truncated or invented cookies must be void,
/// never a crash. Half the runs sign the input so that the decompression and JSON paths behind
/// the signature are reached too.
private let codec = IntentCodec(keys: SecretKeys(current: "fuzzing-secret-0123456789"))

@_cdecl("FuzzIntent_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in
        let input = bytes(data, size)
        let text = String(decoding: input, as: UTF8.self)
        _ = codec.decode(text, now: 1_000)
        _ = CookieBase85.decode(text)
        _ = Brotli.decompress(input, limit: 64 * 1024)
        if let intent = try? JSONDecoder().decode(Intent.self, from: Data(input)),
            let cookie = try? codec.encode(intent)
        {
            _ = codec.decode(cookie, now: intent.issuedAt)
        }
        return 0
    }
}
