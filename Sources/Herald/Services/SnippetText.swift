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
            } else if byte == UInt8(ascii: "&"), let (scalar, end) = HTMLText.characterReference(in: bytes, at: index) {
                UTF8.encode(scalar) { out.append($0) }
                index = end
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
}
