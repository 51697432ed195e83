// Size and time of each coding at each level, for the pages given as files: the measurement the
// shared and per-response levels were chosen by (`Benchmarks/compression-levels.sh` runs it).
//
//   compression-bench PAGE.html…
//
// For each page: gzip 1–9, brotli 0–11 and zstd 1–19, each compressed whole (median time of a
// few runs), then the template of the page at the shared levels with its form tokens as holes,
// and the time to fill one in for a reader.
import Foundation
import HTTP

func median(_ samples: [Double]) -> Double { samples.sorted()[samples.count / 2] }

func time(_ runs: Int, _ body: () -> Void) -> Double {
    median(
        (0..<runs).map { _ in
            let start = DispatchTime.now().uptimeNanoseconds
            body()
            return Double(DispatchTime.now().uptimeNanoseconds - start) / 1000
        })
}

/// The page with each `value="<43 token characters>"` turned into a token hole.
func holed(_ page: [UInt8]) -> HoledPage? {
    let kinds = [HoledPage.Kind(width: 43, filler: HoleFillers.fillers(widths: [43])![0])]
    let needle = Array("name=\"csrf_token\" value=\"".utf8)
    var bytes: [UInt8] = []
    var holes: [HoledPage.Hole] = []
    var index = 0
    while index < page.count {
        if index + needle.count + 43 <= page.count, page[index..<index + needle.count].elementsEqual(needle) {
            bytes += needle
            holes.append(.init(offset: bytes.count, kind: 0))
            bytes += kinds[0].filler
            index += needle.count + 43
        } else {
            bytes.append(page[index])
            index += 1
        }
    }
    return HoledPage(bytes: bytes, holes: holes, kinds: kinds)
}

for path in CommandLine.arguments.dropFirst() {
    guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
    let page = [UInt8](data)
    print("\n## \(path): \(page.count) bytes\n")
    print("| coding | level | bytes | µs | MB/s |")
    print("|---|---|---|---|---|")
    let runs = page.count > 30_000 ? 5 : 9
    func row(_ name: String, _ level: Int32, _ compress: () -> [UInt8]?) {
        let size = compress()?.count ?? -1
        let micros = time(runs) { _ = compress() }
        print("| \(name) | \(level) | \(size) | \(Int(micros)) | \(Int(Double(page.count) / micros)) |")
    }
    for level: Int32 in 1...9 { row("gzip", level) { Gzip(level: level).compress(page) } }
    for quality: Int32 in 0...11 { row("br", quality) { BrotliCodec.compress(page, quality: quality) } }
    for level: Int32 in [1, 2, 3, 4, 5, 6, 9, 12, 15, 19] {
        row("zstd", level) { ZstdCodec(level: level).compress(page) }
    }
    guard let holedPage = holed(page) else { continue }
    print("\nTemplate with \(holedPage.holes.count) token holes, at the shared levels:\n")
    print("| coding | bytes | build ms | fill µs |")
    print("|---|---|---|---|")
    let encoder = PageEncoder()
    let token = [Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQ".utf8)]
    for coding in ContentCoding.compressing {
        var template: EncodedTemplate?
        let build = time(3) { template = encoder.template(holedPage, as: coding) }
        guard let template else {
            print("| \(coding) | refused | | |")
            continue
        }
        let fill = time(101) { _ = template.filled(token) }
        print(
            "| \(coding) | \(template.count) | \(String(format: "%.1f", build / 1000)) | \(String(format: "%.1f", fill)) |"
        )
    }
}
