/// What a search query asks for: its terms, every one of which an article must hold (as a
/// substring, ignoring ASCII case).
///
/// Words are split on whitespace, and kept whole (punctuation included): "co-op" is one term.
/// Chinese and Japanese are written without spaces, so a run of CJK characters is cut into
/// pieces (`words(inCJK:)`), each of which the article must hold. Each piece is part of the run,
/// so an article holding the run itself always matches. Where the run meets other letters
/// (`MRT環狀線`) the two are separate terms.
enum SearchTerms {
    static func of(_ query: String) -> [String] {
        var seen: Set<String> = []
        var terms: [String] = []
        for word in query.split(whereSeparator: { $0.isWhitespace || $0.isNewline }) {
            let text = String(word)
            guard !text.unicodeScalars.allSatisfy({ $0.properties.generalCategory == .control }) else { continue }
            for term in pieces(of: text) where seen.insert(term.lowercased()).inserted {
                terms.append(term)
            }
        }
        return terms
    }

    /// A whitespace-free word as terms: itself, unless it holds CJK characters; then its CJK
    /// runs, each cut into pieces, and what lies between them, each whole.
    static func pieces(of word: String) -> [String] {
        guard word.unicodeScalars.contains(where: isCJK) else { return [word] }
        var pieces: [String] = []
        var run = ""
        var runIsCJK = false
        func flush() {
            guard !run.isEmpty else { return }
            // What is not CJK stays whole, punctuation too: it is taken literally (SPEC).
            pieces += runIsCJK ? words(inCJK: run) : [run]
            run = ""
        }
        for character in word {
            let cjk = character.unicodeScalars.first.map(isCJK) ?? false
            if cjk != runIsCJK { flush() }
            runIsCJK = cjk
            run.append(character)
        }
        flush()
        return pieces.isEmpty ? [word] : pieces
    }

    /// A run of CJK characters as terms of two characters each (the last may be one): most
    /// Chinese words are two characters long, and no dictionary is at hand (Foundation on Linux
    /// has no word breaks). `渡輪班次` asks for `渡輪` and `班次`, so 「渡輪的班次」 is found as
    /// 「渡輪 班次」 finds it; a cut that splits a word (`至午` of `延長至午夜`) still asks only
    /// for characters that stand together in the query, so every article holding the whole run
    /// holds each piece.
    static func words(inCJK run: String) -> [String] {
        let characters = Array(run)
        return stride(from: 0, to: characters.count, by: 2).map { start in
            String(characters[start..<min(start + 2, characters.count)])
        }
    }

    /// Han ideographs (with their extensions and compatibility forms), kana, bopomofo, and the CJK
    /// symbols block's ideographic marks (`々`, `〇`): the scripts written without spaces. Korean
    /// puts spaces between words, so a Hangul word is a word like any other.
    static func isCJK(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x3005...0x3007, 0x3021...0x3029, 0x3040...0x30FF, 0x3100...0x312F, 0x31A0...0x31BF, 0x31F0...0x31FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xF900...0xFAFF, 0xFF66...0xFF9F, 0x20000...0x3134F:
            true
        default: false
        }
    }
}
