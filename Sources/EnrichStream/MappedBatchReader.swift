import RecordCodec

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A regular input file mapped into memory, read in place: no copy from the kernel, and a line
/// of any length costs nothing but the pages it spans. Pages a written batch covered are given
/// back (`madvise(MADV_DONTNEED)`), so the resident memory stays at the batches in flight
/// whatever the file's size.
final class MappedInput {
    let bytes: UnsafeRawBufferPointer
    private let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// Maps the file open as `fd`, of `size` bytes (> 0); `nil` when it cannot be mapped.
    init?(fd: Int32, size: Int) {
        guard size > 0, let p = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED else { return nil }
        _ = madvise(p, size, MADV_SEQUENTIAL)
        bytes = UnsafeRawBufferPointer(start: p, count: size)
    }

    deinit { munmap(UnsafeMutableRawPointer(mutating: bytes.baseAddress), bytes.count) }

    /// Drops the whole pages inside `range` from this process's memory (they stay in the page
    /// cache; read again, they come back).
    func release(_ range: Range<Int>) {
        let start = (range.lowerBound + pageSize - 1) / pageSize * pageSize
        let end = range.upperBound == bytes.count ? bytes.count : range.upperBound / pageSize * pageSize
        guard end > start else { return }
        _ = madvise(UnsafeMutableRawPointer(mutating: bytes.baseAddress! + start), end - start, MADV_DONTNEED)
    }
}

/// Cuts a ``MappedInput`` into ``LineBatch``es that point into the mapping, with the same lines
/// as ``BatchReader`` gives (split at `\n`, trailing `\r`s dropped, a line over
/// ``RecordParser/maximumLineLength`` cut to that length and marked).
struct MappedBatchReader: BatchSource {
    private let input: MappedInput
    private let stop: StopFlag
    private var offset = 0
    private var nextLineNumber = 1

    init(input: MappedInput, stop: StopFlag) {
        self.input = input
        self.stop = stop
    }

    /// Bytes handed out so far.
    var bytesRead: Int { offset }

    /// Fills `batch` (reset first) with the next whole lines, about `batch.capacity` bytes.
    /// - Returns: `false` at the end of the file, or when `stop` is raised.
    mutating func fill(_ batch: LineBatch) -> Bool {
        batch.reset()
        let size = input.bytes.count
        guard offset < size, !stop.isRequested else { return false }
        let p = input.bytes.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var end = min(offset + batch.capacity, size)
        if end < size {
            // end after the last line feed of the window, or, for a line longer than the window,
            // after that line's own
            var last = end - 1
            while last >= offset && p[last] != 0x0A { last -= 1 }
            if last >= offset {
                end = last + 1
            } else if let nl = memchr(p + end, 0x0A, size - end) {
                end = p.distance(to: nl.assumingMemoryBound(to: UInt8.self)) + 1
            } else {
                end = size
            }
        }
        let base = p + offset
        let n = end - offset
        var start = 0
        while start < n && batch.lines.count < LineBatch.maxLines {
            var lineEnd = n
            var next = n
            if let nl = memchr(base + start, 0x0A, n - start) {
                lineEnd = base.distance(to: nl.assumingMemoryBound(to: UInt8.self))
                next = lineEnd + 1
            }
            var stripped = lineEnd
            while stripped > start && base[stripped - 1] == 0x0D { stripped -= 1 }
            var count = stripped - start
            var cut = false
            if count > RecordParser.maximumLineLength {
                if RecordParser.isBlank(UnsafeBufferPointer(start: base + start, count: count)) {
                    count = 0
                } else {
                    count = RecordParser.maximumLineLength
                    cut = true
                }
            }
            batch.lines.append(LineSpan(start: start, count: count, number: nextLineNumber, isCut: cut))
            nextLineNumber += 1
            start = next
        }
        // `start` is `n` unless the line limit stopped the loop: the next batch starts there
        batch.base = UnsafePointer(base)
        batch.filled = start
        batch.mapped = (input, offset..<(offset + start))
        offset += start
        return true
    }
}
