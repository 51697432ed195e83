/// A redirect target that is guaranteed to stay on this site.
public enum LocalPath {
    /// Returns `candidate` when it is a local path (`/…`), else nil.
    /// Refused: empty, `//host` and `/\host` (protocol-relative in browsers), any scheme,
    /// backslashes, control characters.
    public static func validated(_ candidate: String?) -> String? {
        guard let candidate, candidate.utf8.count <= 2048, candidate.utf8.first == UInt8(ascii: "/") else {
            return nil
        }
        var previous: UInt8 = 0
        for (index, byte) in candidate.utf8.enumerated() {
            if byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") { return nil }
            if index == 1 && previous == UInt8(ascii: "/") && byte == UInt8(ascii: "/") { return nil }
            previous = byte
        }
        return candidate
    }
}
