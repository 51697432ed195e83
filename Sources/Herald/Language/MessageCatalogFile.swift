/// The file a translator edits: `Templates/messages/<language>.messages`, one message a line,
/// `key = text`. Lines starting with `#` are comments; `\n` in a text is a line break (mail).
/// Keys are lower-case letters, digits and `_`; `{name}` in a text is a value put in by Swift.
enum MessageCatalogFile {
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    static func parse(_ source: String, path: String) throws(Problem) -> [String: String] {
        var entries: [String: String] = [:]
        var lineNumber = 0
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNumber += 1
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            guard let equals = trimmed.firstIndex(of: "=") else {
                throw Problem(description: "\(path):\(lineNumber): expected `key = text`")
            }
            let key = String(trimmed[..<equals].trimmingSuffix(" \t"))
            guard !key.isEmpty, key.utf8.allSatisfy(isKeyByte) else {
                throw Problem(description: "\(path):\(lineNumber): a key is lower-case letters, digits and _: “\(key)”")
            }
            guard entries[key] == nil else {
                throw Problem(description: "\(path):\(lineNumber): “\(key)” is given twice")
            }
            let text = trimmed[trimmed.index(after: equals)...].drop { $0 == " " || $0 == "\t" }
            entries[key] = String(text.trimmingSuffix(" \t").replacing("\\n", with: "\n"))
        }
        return entries
    }

    private static func isKeyByte(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || byte == UInt8(ascii: "_")
    }
}

extension Substring {
    fileprivate func trimmingSuffix(_ characters: String) -> Substring {
        var text = self
        while let last = text.last, characters.contains(last) { text = text.dropLast() }
        return text
    }
}
