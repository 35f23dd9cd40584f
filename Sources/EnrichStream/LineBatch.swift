import ThreadSharing
import EnrichEngine
import RecordCodec

/// Where one input line lies in its batch's bytes, and which line of its input it is.
struct LineSpan {
    /// Offset of the line's first byte in ``LineBatch/bytes``.
    var start: Int
    /// Its length in bytes, without the `\n` and the `\r`s before it (as Python's
    /// `rstrip(b"\r\n")` strips them); at most ``RecordParser/maximumLineLength`` when ``isCut``.
    var count: Int
    /// The line's number in its input, from 1, counting blank lines.
    var number: Int
    /// The line was longer than ``RecordParser/maximumLineLength`` and only its first
    /// ``RecordParser/maximumLineLength`` bytes were kept (a `line_too_long` error's `raw`).
    var isCut: Bool
}

/// A run of whole input lines on its way through the pipeline: read, then parsed, then decided
/// by the engine, then written. One stage owns a batch at a time; batches are recycled so that
/// the pipeline's memory stays flat whatever the input's size.
///
/// Not `Sendable`: a batch moves between the pipeline's threads as a ``Handoff``, one stage
/// holding it at a time; within the decide stage the workers read its bytes as ``SharedBytes``.
final class LineBatch {
    /// The most lines a batch holds, whatever their length. Each line costs about 130 bytes of
    /// state besides its bytes (its span, parsed record, outcome), so a megabyte of blank lines,
    /// a million of them, would hold 130 MB a batch; ordinary lines (about 150 bytes) fill a
    /// batch's bytes long before this.
    static let maxLines = 1 << 16

    /// The batch's own buffer, which ``BatchReader`` reads into.
    private(set) var storage: UnsafeMutableRawBufferPointer
    /// Where the lines' bytes are: the start of ``storage``.
    var base: UnsafePointer<UInt8>
    /// Bytes of ``storage`` in use.
    var filled = 0
    /// The lines, in input order.
    var lines: [LineSpan] = []
    /// Index of the input (file) the lines come from.
    var source = 0
    /// The input had nothing more to read for now when the batch was cut: a live stream, whose
    /// output should be flushed now rather than when a buffer fills.
    var endsBurst = false
    /// Where the batch's lines lie in the stream, as input bytes over all inputs from where
    /// each was when the run began: its first line starts at the lower bound (byte 0 of
    /// ``storage``), and the line after its last at the upper (the `bytes` statistic, a resume
    /// offset).
    var inputRange = 0..<0

    /// Once read: the lines as checked, in chunks of consecutive lines (``ParallelRunner``).
    var chunks: [ParsedChunk] = []
    /// Once decided: each session partition's output, the partition's lines in input order.
    var outputs: [ProcessorOutput] = []

    /// - Parameter capacity: the initial size of ``storage`` in bytes.
    init(capacity: Int) {
        storage = .allocate(byteCount: capacity, alignment: 16)
        base = UnsafePointer(storage.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    deinit { storage.deallocate() }

    var capacity: Int { storage.count }

    /// Makes ``storage`` at least `byteCount` long, keeping its first ``filled`` bytes.
    func reserve(_ byteCount: Int) {
        guard byteCount > storage.count else { return }
        let bigger = UnsafeMutableRawBufferPointer.allocate(byteCount: byteCount, alignment: 16)
        if filled > 0 { bigger.baseAddress!.copyMemory(from: storage.baseAddress!, byteCount: filled) }
        storage.deallocate()
        storage = bigger
        base = UnsafePointer(storage.baseAddress!.assumingMemoryBound(to: UInt8.self))
    }

    /// Empties the batch for reuse, keeping its allocations.
    func reset() {
        filled = 0
        base = UnsafePointer(storage.baseAddress!.assumingMemoryBound(to: UInt8.self))
        endsBurst = false
        lines.removeAll(keepingCapacity: true)
        // the records' ids and outputs are let go now, not when the batch is next decided
        for i in chunks.indices { chunks[i].removeAll() }
        for i in outputs.indices { outputs[i].removeAll() }
    }

    /// The batch's `count` chunks, emptied, for reading into: taken out of the batch, which
    /// gets them back with their storage once read.
    func takeChunks(count: Int) -> [ParsedChunk] {
        var taken: [ParsedChunk] = []
        swap(&taken, &chunks)
        if taken.count > count { taken.removeLast(taken.count - count) }
        while taken.count < count { taken.append(ParsedChunk()) }
        return taken
    }

    /// The batch's `count` partition outputs, emptied, for deciding into (as ``takeChunks(count:)``).
    func takeOutputs(count: Int) -> [ProcessorOutput] {
        var taken: [ProcessorOutput] = []
        swap(&taken, &outputs)
        if taken.count > count { taken.removeLast(taken.count - count) }
        for i in taken.indices { taken[i].removeAll() }
        while taken.count < count { taken.append(ProcessorOutput()) }
        return taken
    }

    /// The bytes of line `i`.
    @inline(__always)
    func line(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let span = lines[i]
        return UnsafeBufferPointer(start: base + span.start,
                                   count: span.count)
    }
}

extension SharedBytes {
    /// The bytes of the line at `span`.
    @inline(__always)
    func line(_ span: LineSpan) -> UnsafeBufferPointer<UInt8> {
        bytes(start: span.start, count: span.count)
    }
}
