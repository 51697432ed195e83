#if canImport(Glibc)
    import Glibc
#endif

/// Finding a byte string in bytes with `memchr` + `memcmp`: the generic `firstRange(of:)` on byte
/// arrays is two orders of magnitude slower (it made a cached article page slower than rendering it).
/// No pointer leaves this file.
enum ByteSearch {
    /// Where each occurrence of `needle` starts in `haystack`, in order; occurrences do not overlap.
    /// None for an empty needle.
    static func offsets(of needle: [UInt8], in haystack: [UInt8]) -> [Int] {
        guard let first = needle.first, haystack.count >= needle.count else { return [] }
        return haystack.withUnsafeBytes { hay in
            needle.withUnsafeBytes { pin in
                guard let base = hay.baseAddress, let pinBase = pin.baseAddress else { return [] }
                var found: [Int] = []
                let last = hay.count - pin.count
                var index = 0
                while index <= last {
                    guard let hit = memchr(base + index, Int32(first), last - index + 1) else { break }
                    let position = base.distance(to: UnsafeRawPointer(hit))
                    if memcmp(base + position, pinBase, pin.count) == 0 {
                        found.append(position)
                        index = position + pin.count
                    } else {
                        index = position + 1
                    }
                }
                return found
            }
        }
    }
}
