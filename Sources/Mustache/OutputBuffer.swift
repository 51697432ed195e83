/// A growable byte buffer written by bumping a pointer.
///
/// A page is a few hundred small writes, and `Array.append(contentsOf:)` costs ~10 ns each
/// here (uniqueness and capacity checks, a generic copy) where a pointer bump costs ~1 ns. The
/// renderer writes into this buffer and hands the page to the caller's `[UInt8]` in one copy,
/// which also means a render that throws appends nothing.
struct OutputBuffer: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private(set) var count = 0

    init(capacity: Int = 4096) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit {
        base.deallocate()
    }

    /// Makes room for `extra` more bytes and returns where they go; callers then `advance`.
    @inline(__always)
    mutating func reserve(_ extra: Int) -> UnsafeMutablePointer<UInt8> {
        if count + extra > capacity { grow(to: count + extra) }
        return base + count
    }

    @inline(__always)
    mutating func advance(by written: Int) {
        count += written
    }

    @inline(__always)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        reserve(bytes.count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    @inline(__always)
    mutating func write(_ byte: UInt8) {
        reserve(1).pointee = byte
        count += 1
    }

    func copy(into out: inout [UInt8]) {
        out.append(contentsOf: UnsafeBufferPointer(start: base, count: count))
    }

    private mutating func grow(to needed: Int) {
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }
}
