/// Writes bytes into memory its owner sized for the worst case: the splice's inner loop, without
/// the per-byte capacity and uniqueness checks of `Array.append`.
struct ByteWriter {
    let base: UnsafeMutablePointer<UInt8>
    let capacity: Int
    private(set) var count = 0

    init(_ buffer: UnsafeMutableBufferPointer<UInt8>) {
        base = buffer.baseAddress!
        capacity = buffer.count
    }

    var written: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    @inline(__always) mutating func write(_ byte: UInt8) {
        assert(count < capacity)
        base[count] = byte
        count += 1
    }

    @inline(__always) mutating func write(_ text: StaticString) {
        let n = text.utf8CodeUnitCount
        assert(count + n <= capacity)
        (base + count).update(from: text.utf8Start, count: n)
        count += n
    }

    @inline(__always) mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress else { return }
        assert(count + bytes.count <= capacity)
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Counts `n` bytes as written and returns where they go, for the caller to fill (digits
    /// made from the last one back, without a buffer to copy them from).
    @inline(__always) mutating func advance(by n: Int) -> UnsafeMutablePointer<UInt8> {
        assert(count + n <= capacity)
        defer { count += n }
        return base + count
    }

    /// Writes the low `count` bytes of `word`, the lowest first (at most 8).
    @inline(__always) mutating func write(word: UInt64, count n: Int) {
        assert(n <= 8 && count + n <= capacity)
        for i in 0..<n { base[count + i] = UInt8(truncatingIfNeeded: word >> (8 * UInt64(i))) }
        count += n
    }
}
