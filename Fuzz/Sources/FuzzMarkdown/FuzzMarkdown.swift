import FuzzSupport

@testable import Herald

/// The article renderer: any bytes (read as UTF-8 with replacement) render to HTML made only of the
/// tags and attributes cmark writes, with every link and image target on the web, mail or local,
/// no raw HTML and no `<h1>`. The checks below read the output on their own, without
/// `MarkdownURLPolicy`, so a hole in the policy shows up here rather than being agreed with.
@_cdecl("FuzzMarkdown_main")
func fuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { data, size in
        let html = Markdown.html(String(decoding: bytes(data, size), as: UTF8.self))
        let lowered = html.lowercased()
        for forbidden in ["<script", "href=\"javascript", "src=\"javascript", "href=\"data:", "src=\"data:", "<h1"] {
            precondition(!lowered.contains(forbidden), "\(forbidden) in \(html)")
        }
        checkTags(Array(html.utf8))
        return 0
    }
}

private let tags: Set<String> = [
    "p", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li", "pre", "code", "em", "strong", "del",
    "a", "img", "br", "hr", "table", "thead", "tbody", "tr", "th", "td",
]
private let attributes: Set<String> = ["href", "src", "title", "alt", "align", "class", "start"]

/// Every `<` in the output opens a tag from `tags` whose attributes are all from `attributes`,
/// double-quoted, holding no `<`, `>` or `"` (text and attribute values are escaped by cmark).
private func checkTags(_ html: [UInt8]) {
    var index = 0
    func isName(_ byte: UInt8) -> Bool { (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) }
    func name() -> String {
        let start = index
        while index < html.count, isName(html[index]) { index += 1 }
        return String(decoding: html[start..<index], as: UTF8.self)
    }
    func fail(_ why: String) -> Never {
        preconditionFailure("\(why) at \(index) in \(String(decoding: html, as: UTF8.self))")
    }
    while index < html.count {
        guard html[index] == UInt8(ascii: "<") else {
            if html[index] == UInt8(ascii: ">") { fail("a > outside a tag") }
            index += 1
            continue
        }
        index += 1
        if index < html.count, html[index] == UInt8(ascii: "/") { index += 1 }
        let tag = name()
        guard tags.contains(tag) else { fail("tag <\(tag)") }
        while true {
            while index < html.count, html[index] == UInt8(ascii: " ") { index += 1 }
            guard index < html.count else { fail("an unclosed tag") }
            if html[index] == UInt8(ascii: ">") { break }
            if html[index] == UInt8(ascii: "/"), index + 1 < html.count, html[index + 1] == UInt8(ascii: ">") {
                index += 1
                break
            }
            let attribute = name()
            guard attributes.contains(attribute) else { fail("attribute \(attribute) on <\(tag)>") }
            guard index + 1 < html.count, html[index] == UInt8(ascii: "="), html[index + 1] == UInt8(ascii: "\"")
            else { fail("an unquoted attribute") }
            index += 2
            let start = index
            while index < html.count, html[index] != UInt8(ascii: "\"") {
                if html[index] == UInt8(ascii: "<") || html[index] == UInt8(ascii: ">") { fail("< or > in a value") }
                index += 1
            }
            guard index < html.count else { fail("an unclosed value") }
            if attribute == "href" || attribute == "src" { checkTarget(html[start..<index], fail) }
            index += 1
        }
        index += 1
    }
}

/// A target as written in the page: `http:`, `https:` or `mailto:`, or no scheme at all, neither
/// as written nor percent-decoded, and not `//another-host`. Bytes, not characters: a combining
/// mark after a `/` would make one `Character` of both.
private func checkTarget(_ value: ArraySlice<UInt8>, _ fail: (String) -> Never) {
    let written = String(decoding: value, as: UTF8.self).lowercased()
        .replacing("&amp;", with: "&").replacing("&#x27;", with: "'")
    for target in [Array(written.utf8), percentDecoded(Array(written.utf8))] {
        if ["http:", "https:", "mailto:"].contains(where: { target.starts(with: $0.utf8) }) { continue }
        let firstSegment = target.prefix { !"/?#".utf8.contains($0) }
        let text = String(decoding: target, as: UTF8.self)
        if firstSegment.contains(UInt8(ascii: ":")) { fail("a target with a scheme: \(text)") }
        if ["//", "\\", "/\\"].contains(where: { target.starts(with: $0.utf8) }) {
            fail("a target on another host: \(text)")
        }
    }
}

private func percentDecoded(_ bytes: [UInt8]) -> [UInt8] {
    func hex(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: byte - 0x30
        case 0x61...0x66: byte - 0x61 + 10
        default: nil  // the target is lowercased already
        }
    }
    var out: [UInt8] = []
    var index = 0
    while index < bytes.count {
        if bytes[index] == UInt8(ascii: "%"), index + 2 < bytes.count, let high = hex(bytes[index + 1]),
            let low = hex(bytes[index + 2])
        {
            out.append(high << 4 | low)
            index += 3
        } else {
            out.append(bytes[index])
            index += 1
        }
    }
    return out
}
