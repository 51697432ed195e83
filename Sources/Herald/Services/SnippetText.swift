/// An article's body as the words a reader sees, for search snippets: the Markdown rendered
/// (`bodyHTML`, made when the text was saved) with its tags taken out and its character
/// references read, so a snippet never shows `**`, `#` or `[text](url)`. Imports are plain text
/// already. Works on UTF-8 bytes: it runs for every result of every search.
enum SnippetText {
    static func of(_ article: Article) -> String {
        guard let html = article.bodyHTML else { return article.body }
        return fromHTML(html)
    }

    /// Elements that end a run of text: they become a space, so words of two paragraphs, list
    /// items or cells do not run together. Every other tag (`<strong>`, `<a>`) is dropped without
    /// one: 「**渡輪**班次」 reads 「渡輪班次」.
    private static let breaking: Set<[UInt8]> = Set(
        [
            "p", "br", "h1", "h2", "h3", "h4", "h5", "h6", "li", "ul", "ol", "blockquote", "pre", "hr", "table",
            "thead", "tbody", "tr", "td", "th", "div", "img", "figure", "figcaption",
        ].map { Array($0.utf8) })

    static func fromHTML(_ html: String) -> String {
        let bytes = Array(html.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "<"), let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")) {
                if breaking.contains(tagName(bytes[(index + 1)..<end])) { out.append(UInt8(ascii: " ")) }
                index = end + 1
            } else if byte == UInt8(ascii: "&"), let character = reference(bytes, at: index) {
                out += character.bytes
                index += character.length
            } else {
                out.append(byte)
                index += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// `p` of `<p>`, `</p>` or `<p class="x">`, lowercased.
    private static func tagName(_ inside: ArraySlice<UInt8>) -> [UInt8] {
        var name: [UInt8] = []
        for byte in inside.drop(while: { $0 == UInt8(ascii: "/") }) {
            let lower = (0x41...0x5A).contains(byte) ? byte + 32 : byte
            guard (0x61...0x7A).contains(lower) || (0x30...0x39).contains(lower) else { break }
            name.append(lower)
        }
        return name
    }

    /// The character a reference at `start` stands for (`&amp;`, `&#39;`, `&#x6E21;`), and how
    /// many bytes it took; nil for an `&` that starts none (kept as it is).
    private static func reference(_ bytes: [UInt8], at start: Int) -> (bytes: [UInt8], length: Int)? {
        guard let end = bytes[start...].prefix(12).firstIndex(of: UInt8(ascii: ";")) else { return nil }
        let name = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
        let scalar: Unicode.Scalar?
        switch name {
        case "amp": scalar = "&"
        case "lt": scalar = "<"
        case "gt": scalar = ">"
        case "quot": scalar = "\""
        case "apos": scalar = "'"
        case "nbsp": scalar = " "
        default:
            guard name.hasPrefix("#") else { return nil }
            let digits = name.dropFirst()
            let value =
                digits.first == "x" || digits.first == "X" ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits)
            scalar = value.flatMap { Unicode.Scalar($0) }.flatMap { $0 == "\0" ? nil : $0 }
        }
        guard let scalar else { return nil }
        return (Array(String(scalar).utf8), end - start + 1)
    }
}
