/// Writing non-negative numbers as ASCII digits straight into a byte buffer, for fixed formats
/// (dates) made without intermediate strings.
public enum DecimalDigits {
    /// How many digits `number` (≥ 0) has.
    public static func count(of number: Int) -> Int {
        var count = 1
        var rest = number / 10
        while rest > 0 {
            count += 1
            rest /= 10
        }
        return count
    }

    /// Writes the last `digits` digits of `number` (≥ 0) at `index`, padded with zeros.
    public static func write(
        _ number: Int, digits: Int, into bytes: UnsafeMutableBufferPointer<UInt8>, at index: Int
    ) {
        var rest = number
        for offset in stride(from: digits - 1, through: 0, by: -1) {
            bytes[index + offset] = UInt8(48 + rest % 10)
            rest /= 10
        }
    }
}
