#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Pieces of memory to be written one after the other, as `writev(2)` takes them: a batch's
/// output, gathered from where its bytes already are (the input's lines, the partitions'
/// outputs) rather than copied into one buffer first.
///
/// Holds pointers, not the memory: whoever fills a list keeps what it points at alive and
/// unchanged until the list is written. A piece that starts where the last one ends extends
/// it (consecutive input lines written as they are become one piece).
struct GatherList {
    private(set) var pieces: [iovec] = []
    /// The bytes of all the pieces.
    private(set) var byteCount = 0

    init() {}

    /// Adds the `count` bytes at `start`.
    @inline(__always)
    mutating func append(_ start: UnsafePointer<UInt8>, count: Int) {
        byteCount += count
        let start = UnsafeMutableRawPointer(mutating: start)
        if let last = pieces.last, last.iov_base! + last.iov_len == start {
            pieces[pieces.count - 1].iov_len += count
        } else {
            pieces.append(iovec(iov_base: start, iov_len: count))
        }
    }

    /// Empties the list, keeping its storage.
    mutating func removeAll() {
        pieces.removeAll(keepingCapacity: true)
        byteCount = 0
    }

    /// Drops the first `n` bytes (written by a short `writev`) from the pieces from `first` on.
    /// - Returns: the index of the first piece with bytes left.
    mutating func consume(_ n: Int, from first: Int) -> Int {
        var left = n
        var k = first
        while k < pieces.count && left >= pieces[k].iov_len {
            left -= pieces[k].iov_len
            k += 1
        }
        if left > 0 {
            pieces[k].iov_base! += left
            pieces[k].iov_len -= left
        }
        return k
    }
}
