import RecordCodec

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Cuts one input into ``LineBatch``es of whole lines: split at `\n` only (as Python reads a
/// binary file), each line's trailing `\r`s dropped, a last line without `\n` still a line, and
/// a line longer than ``RecordParser/maximumLineLength`` kept as its first that many bytes (all
/// a `line_too_long` error shows), however long it is: memory stays bounded.
///
/// - Complexity: O(n) in the input's bytes; each byte is copied once, from the kernel.
/// What the reader thread takes batches from: one input cut into whole lines.
protocol BatchSource {
    /// Fills `batch` (reset first) with the next lines; `false` at the end.
    mutating func fill(_ batch: LineBatch) throws(StreamError) -> Bool
    /// Input bytes of the lines handed out so far, with their line feeds: where the next line
    /// starts, relative to where reading began (a resume offset).
    var bytesConsumed: Int { get }
}

struct BatchReader: BatchSource {
    private let input: InputFile
    private let stop: StopFlag
    /// The start of a line that did not fit in the last batch, or, when that batch reached its
    /// line limit, the lines after its last.
    private var carry: [UInt8] = []
    /// Whether ``carry`` is the rest of a batch stopped by its line limit (whole lines, which fit
    /// a batch as they are) rather than the start of one long line (which needs room to grow).
    private var carryAfterLineLimit = false
    private var nextLineNumber = 1
    private var atEnd = false
    /// Bytes read from the input so far.
    private var bytesRead = 0
    /// Bytes read but never handed out: an unfinished last line left at a stop or a truncation.
    private var bytesLeft = 0
    var bytesConsumed: Int { bytesRead - carry.count - bytesLeft }
    /// The longest line a batch grows to hold whole; longer lines are cut.
    private static let wholeLineLimit = 2 * RecordParser.maximumLineLength + 2

    init(input: InputFile, stop: StopFlag) {
        self.input = input
        self.stop = stop
    }

    /// Fills `batch` (reset first) with the next whole lines, about `batch.capacity` bytes of them.
    /// - Returns: `false` when the input had no more lines.
    /// - Throws: ``StreamError`` when reading fails.
    mutating func fill(_ batch: LineBatch) throws(StreamError) -> Bool {
        batch.reset()
        if carry.count > batch.capacity || (!carryAfterLineLimit && carry.count * 2 > batch.capacity) {
            batch.reserve(carry.count * 2)
        }
        if !carry.isEmpty {
            carry.withUnsafeBytes { batch.storage.baseAddress!.copyMemory(from: $0.baseAddress!, byteCount: $0.count) }
            batch.filled = carry.count
            carry.removeAll(keepingCapacity: true)
        }
        // the lines are gathered in a local array and stored in the batch at the end: appended to
        // the class's property, each line cost a dynamic exclusivity check (`swift_beginAccess`,
        // 80 instructions a line, callgrind)
        var lines: [LineSpan] = []
        swap(&lines, &batch.lines)
        defer { swap(&lines, &batch.lines) }
        var lineStart = 0
        var scanned = 0
        while true {
            let base = batch.storage.baseAddress!.assumingMemoryBound(to: UInt8.self)
            // every complete line in what has been read
            let filled = batch.filled
            // up to 1,024 lines an append: the array's uniqueness and capacity checked once for
            // them, not on every line (about 25 instructions a line, callgrind)
            var newlineLeft = true
            while newlineLeft, scanned < filled, lines.count < LineBatch.maxLines {
                lines.append(addingCapacity: min(1024, LineBatch.maxLines - lines.count)) { added in
                    while !added.isFull {
                        guard scanned < filled, let nl = memchr(base + scanned, 0x0A, filled - scanned) else {
                            newlineLeft = false
                            return
                        }
                        let end = base.distance(to: nl.assumingMemoryBound(to: UInt8.self))
                        added.append(line(base, start: lineStart, end: end))
                        lineStart = end + 1
                        scanned = lineStart
                    }
                }
            }
            // at the line limit, the rest waits for the next batch (in the carry)
            if lines.count >= LineBatch.maxLines { break }
            scanned = batch.filled
            if atEnd {
                if lineStart < batch.filled {
                    lines.append(line(base, start: lineStart, end: batch.filled))
                    lineStart = batch.filled
                }
                break
            }
            if batch.filled == batch.capacity {
                if !lines.isEmpty { break }
                if batch.capacity < Self.wholeLineLimit {
                    batch.reserve(min(2 * batch.capacity, Self.wholeLineLimit))
                    continue
                }
                try cutOverlongLine(batch, &lines)
                return true
            }
            let room = UnsafeMutableRawBufferPointer(start: batch.storage.baseAddress! + batch.filled,
                                                     count: batch.capacity - batch.filled)
            // with whole lines in hand and a pipe that is quiet for now, hand them on
            guard let n = try input.read(into: room, stop: stop, waitIfIdle: lines.isEmpty) else {
                batch.endsBurst = true
                break
            }
            if n == 0 {
                atEnd = true
                // stopped, not at the end, or the file was cut short under us: the unfinished
                // line was not read whole, so it is left
                if stop.isRequested || input.truncation != nil {
                    bytesLeft += batch.filled - lineStart
                    batch.filled = lineStart
                }
            } else {
                batch.filled += n
                bytesRead += n
            }
        }
        carryAfterLineLimit = lines.count >= LineBatch.maxLines
        if lineStart < batch.filled {
            carry.append(contentsOf: UnsafeRawBufferPointer(start: batch.storage.baseAddress! + lineStart,
                                                            count: batch.filled - lineStart))
        }
        return !lines.isEmpty
    }

    /// The next line, in `start..<end` of `base` (without its `\n`), its trailing `\r`s dropped.
    @inline(__always)
    private mutating func line(_ base: UnsafePointer<UInt8>, start: Int, end: Int) -> LineSpan {
        var stripped = end
        while stripped > start && base[stripped &- 1] == 0x0D { stripped &-= 1 }
        defer { nextLineNumber += 1 }
        return LineSpan(start: start, count: stripped &- start, number: nextLineNumber, isCut: false)
    }

    /// The batch is full with the start of one line and no `\n`: keep its first
    /// ``RecordParser/maximumLineLength`` bytes, read and drop the rest up to the `\n`, and keep
    /// what follows it for the next batch.
    private mutating func cutOverlongLine(_ batch: LineBatch, _ lines: inout [LineSpan]) throws(StreamError) {
        let kept = RecordParser.maximumLineLength
        let base = batch.storage.baseAddress!.assumingMemoryBound(to: UInt8.self)
        var total = batch.filled
        var trailingCRs = Self.trailingCRs(base, from: 0, to: total, previous: 0)
        var blank = RecordParser.isBlank(UnsafeBufferPointer(start: base, count: total))
        let scratch = UnsafeMutableRawBufferPointer(start: batch.storage.baseAddress! + kept,
                                                    count: batch.capacity - kept)
        let s = scratch.baseAddress!.assumingMemoryBound(to: UInt8.self)
        while true {
            let n = try input.read(into: scratch, stop: stop)!
            if n == 0 { atEnd = true; break }
            bytesRead += n
            if let nl = memchr(s, 0x0A, n) {
                let j = s.distance(to: nl.assumingMemoryBound(to: UInt8.self))
                trailingCRs = Self.trailingCRs(s, from: 0, to: j, previous: trailingCRs)
                blank = blank && RecordParser.isBlank(UnsafeBufferPointer(start: s, count: j))
                total += j
                carry.append(contentsOf: UnsafeRawBufferPointer(start: s + j + 1, count: n - j - 1))
                break
            }
            trailingCRs = Self.trailingCRs(s, from: 0, to: n, previous: trailingCRs)
            blank = blank && RecordParser.isBlank(UnsafeBufferPointer(start: s, count: n))
            total += n
        }
        let length = total - trailingCRs
        batch.filled = kept
        // the peer skips a line of white space whatever its length: give it as an empty line
        lines.append(LineSpan(start: 0, count: blank ? 0 : min(length, kept), number: nextLineNumber,
                                    isCut: !blank && length > kept))
        nextLineNumber += 1
    }

    /// The run of `\r` at the end of everything read so far, after `bytes[from..<to]`.
    private static func trailingCRs(_ bytes: UnsafePointer<UInt8>, from: Int, to: Int, previous: Int) -> Int {
        var i = to
        while i > from && bytes[i - 1] == 0x0D { i -= 1 }
        return i == from ? previous + (to - from) : to - i
    }
}
