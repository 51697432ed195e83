/// "4 min read" under an article's title. Counted from the text as written (Markdown or an
/// import's plain text): words at 230 a minute — an adult's silent reading of prose — where an
/// ideograph, kana or hangul syllable counts half a word, since those scripts are read at about
/// 500 characters a minute and written without spaces between words.
enum ReadingTime {
    static let wordsPerMinute = 230

    static func minutes(of text: String) -> Int {
        var words = 0
        var halfWords = 0
        var inWord = false
        for scalar in text.unicodeScalars {
            if isWrittenWithoutSpaces(scalar) {
                halfWords += 1
                inWord = false
            } else if scalar.properties.isWhitespace {
                inWord = false
            } else if !inWord {
                words += 1
                inWord = true
            }
        }
        let total = words + halfWords / 2
        return max(1, (total + wordsPerMinute - 1) / wordsPerMinute)
    }

    static func text(of text: String) -> String {
        "\(minutes(of: text)) min read"
    }

    /// CJK ideographs, kana and hangul syllables: the scripts whose words are not spaced.
    private static func isWrittenWithoutSpaces(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3040...0x30FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0x20000...0x2FA1F:
            true
        default: false
        }
    }
}
