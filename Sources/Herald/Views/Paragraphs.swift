/// Splits plain text into paragraphs at blank lines, trimming each.
///
/// Runs on every article view, so it scans UTF-8 bytes instead of using Foundation's
/// `trimmingCharacters`, which bridges through NSString and cost ~60 % of a page render.
enum Paragraphs {
    static func split(_ text: String) -> [String] {
        var paragraphs: [String] = []
        var text = text
        text.withUTF8 { bytes in
            var start = 0
            var index = 0
            while index < bytes.count {
                // A paragraph ends at "\n" followed by optional spaces/tabs and another "\n".
                if bytes[index] == UInt8(ascii: "\n") {
                    var next = index + 1
                    while next < bytes.count,
                        bytes[next] == UInt8(ascii: " ") || bytes[next] == UInt8(ascii: "\t")
                            || bytes[next] == UInt8(ascii: "\r")
                    {
                        next += 1
                    }
                    if next < bytes.count, bytes[next] == UInt8(ascii: "\n") {
                        append(bytes, start, index, to: &paragraphs)
                        start = next + 1
                        index = next + 1
                        continue
                    }
                }
                index += 1
            }
            append(bytes, start, bytes.count, to: &paragraphs)
        }
        return paragraphs
    }

    private static func append(
        _ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, to paragraphs: inout [String]
    ) {
        var low = start
        var high = end
        while low < high, isSpace(bytes[low]) { low += 1 }
        while high > low, isSpace(bytes[high - 1]) { high -= 1 }
        if low < high {
            paragraphs.append(String(decoding: UnsafeBufferPointer(rebasing: bytes[low..<high]), as: UTF8.self))
        }
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\t")
            || byte == UInt8(ascii: "\r")
    }
}
