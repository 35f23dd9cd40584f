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
///
/// Its pieces lie in memory of its own, so the list is not copyable. An enriched line is two
/// pieces (the input up to its closing brace, then its tail); in an array, each append took a
/// uniqueness check (a call) and a bounds check. The last piece is kept open, outside
/// ``pieces``, until a piece that does not follow it (or ``close()``): extending it is two
/// additions. (Both together: about 30 instructions a line of the benchmark stream, callgrind.)
struct GatherList: ~Copyable {
    private var storage: UnsafeMutablePointer<iovec>
    private var capacity: Int
    /// The closed pieces.
    private var count = 0
    /// The bytes of all the pieces.
    private(set) var byteCount = 0
    /// The open piece: its start (nil: none) and its length.
    private var openStart: UnsafeMutableRawPointer? = nil
    private var openCount = 0

    init() {
        capacity = 1024
        storage = .allocate(capacity: capacity)
    }

    deinit { storage.deallocate() }

    /// The pieces, all of them once ``close()`` was called after the last ``append(_:count:)``;
    /// valid until the list next changes.
    var pieces: UnsafeBufferPointer<iovec> { UnsafeBufferPointer(start: storage, count: count) }

    /// Adds the `count` bytes at `start`.
    @inline(__always)
    mutating func append(_ start: UnsafePointer<UInt8>, count: Int) {
        byteCount &+= count
        let start = UnsafeMutableRawPointer(mutating: start)
        if let open = openStart {
            if open + openCount == start {
                openCount &+= count
                return
            }
            push(open, openCount)
        }
        openStart = start
        openCount = count
    }

    /// Moves the open piece into ``pieces``.
    mutating func close() {
        guard let open = openStart else { return }
        push(open, openCount)
        openStart = nil
        openCount = 0
    }

    @inline(__always)
    private mutating func push(_ start: UnsafeMutableRawPointer, _ length: Int) {
        if count == capacity { grow() }
        (storage + count).initialize(to: iovec(iov_base: start, iov_len: length))
        count &+= 1
    }

    private mutating func grow() {
        let bigger = UnsafeMutablePointer<iovec>.allocate(capacity: 2 * capacity)
        bigger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = bigger
        capacity *= 2
    }

    /// Empties the list, keeping its storage.
    mutating func removeAll() {
        count = 0
        byteCount = 0
        openStart = nil
        openCount = 0
    }

    /// Drops the first `n` bytes (written by a short `writev`) from the pieces from `first` on.
    /// - Returns: the index of the first piece with bytes left.
    mutating func consume(_ n: Int, from first: Int) -> Int {
        var left = n
        var k = first
        while k < count && left >= storage[k].iov_len {
            left -= storage[k].iov_len
            k += 1
        }
        if left > 0 {
            storage[k].iov_base! += left
            storage[k].iov_len -= left
        }
        return k
    }
}
