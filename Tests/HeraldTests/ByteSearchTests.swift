import Testing

@testable import Herald

@Suite struct ByteSearchTests {
    private func offsets(_ needle: String, _ haystack: String) -> [Int] {
        ByteSearch.offsets(of: Array(needle.utf8), in: Array(haystack.utf8))
    }

    @Test func findsEveryOccurrenceInOrderWithoutOverlap() {
        #expect(offsets("marker", "a marker, another marker") == [2, 18])
        #expect(offsets("aa", "aaaaa") == [0, 2])
        #expect(offsets("abc", "ababcab") == [2])
        #expect(offsets("end", "the end") == [4])
        #expect(offsets("x", "x") == [0])
    }

    @Test func findsNothingWhereNothingCanMatch() {
        #expect(offsets("", "anything") == [])
        #expect(offsets("longer", "long") == [])
        #expect(offsets("abc", "") == [])
        #expect(offsets("abd", "abcabcab") == [])
    }
}
