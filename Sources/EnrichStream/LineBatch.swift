import EnrichEngine
import RecordCodec

/// Where one input line lies in its batch's bytes, and which line of its input it is.
struct LineSpan {
    /// Offset of the line's first byte in ``LineBatch/bytes``.
    var start: Int
    /// Its length in bytes, without the `\n` and the `\r`s before it (the peer's
    /// `rstrip(b"\r\n")`); at most ``RecordParser/maximumLineLength`` when ``isCut``.
    var count: Int
    /// The line's number in its input, from 1, counting blank lines.
    var number: Int
    /// The line was longer than ``RecordParser/maximumLineLength`` and only its first
    /// ``RecordParser/maximumLineLength`` bytes were kept (a `line_too_long` error's `raw`).
    var isCut: Bool
}

/// What became of one line: the figure of contract rule 10 it adds to.
enum LineOutcome: UInt8 {
    /// Only white space: skipped, not counted.
    case blank
    /// A valid record, not decided yet: its partition's results say what became of it.
    case record
    /// An SDK line's records: the partition's list of outcomes holds one per record.
    case records
    /// A bad line (rule 9), written to the error output.
    case error
    /// An event without a location.
    case event
    /// An event with the session's live location.
    case eventEnriched
    /// An accepted fix.
    case fixAccepted
    case rejectedDistance
    case rejectedStale
    case rejectedAccuracy
    case rejectedConsent

    init(_ reason: RejectReason) {
        switch reason {
        case .distance: self = .rejectedDistance
        case .stale: self = .rejectedStale
        case .accuracy: self = .rejectedAccuracy
        case .consent: self = .rejectedConsent
        }
    }
}

/// What a partition decided about one of its lines, and where the line's output is: nowhere,
/// the input line as it is, or `count` bytes at `start` in the partition's output.
struct DecidedLine {
    var outcome: LineOutcome
    var output: Output
    var start: Int32 = 0
    var count: Int32 = 0
    /// For ``LineOutcome/records``: where the records' outcomes are in the partition's list.
    var firstOutcome: Int32 = 0
    var outcomeCount: Int32 = 0

    enum Output: UInt8 {
        case none, input, written
    }
}

/// A checked line ready for the engine: its record(s) and their session ids with their hashes.
enum ReadyRecord {
    /// A canonical record.
    case canonical(ParsedRecord, SessionID)
    /// The records of an SDK payload line (an EQWorks batch may hold several, or none).
    case sdk([SDKRecord], [SessionID])
}

/// A run of whole input lines on its way through the pipeline: read, then parsed, then decided
/// by the engine, then written. One stage owns a batch at a time; batches are recycled so that
/// the pipeline's memory stays flat whatever the input's size.
///
/// `@unchecked Sendable`: a batch moves between threads through the pipeline's queues, and only
/// the stage holding it touches it (within a stage, workers write disjoint parts: their own
/// range of lines when parsing, their own partition's buffer and lines' results when deciding).
final class LineBatch: @unchecked Sendable {
    /// The most lines a batch holds, whatever their length. Each line costs about 130 bytes of
    /// state besides its bytes (its span, parsed record, outcome), so a megabyte of blank lines,
    /// a million of them, would hold 130 MB a batch; ordinary lines (about 150 bytes) fill a
    /// batch's bytes long before this.
    static let maxLines = 1 << 16

    /// The batch's own buffer, which ``BatchReader`` reads into.
    private(set) var storage: UnsafeMutableRawBufferPointer
    /// Where the lines' bytes are: ``storage``, or a part of a memory-mapped input file
    /// (``MappedBatchReader``), whose pages are released once the batch is written.
    var base: UnsafePointer<UInt8>
    /// The part of a mapped input the batch covers (its pages are released after writing).
    var mapped: (input: MappedInput, range: Range<Int>)?
    /// Bytes of ``storage`` in use.
    var filled = 0
    /// The lines, in input order.
    var lines: [LineSpan] = []
    /// Index of the input (file) the lines come from.
    var source = 0
    /// The input had nothing more to read for now when the batch was cut: a live stream, whose
    /// output should be flushed now rather than when a buffer fills.
    var endsBurst = false
    /// Input bytes read, over all inputs, when the batch was filled (for progress).
    var bytesReadBefore = 0

    /// One per line once parsed: the record, or `nil` for a blank or bad line.
    var records: [ReadyRecord?] = []
    /// One per line once parsed: blank, error, or a record for the partition in ``routes``.
    var outcomes: [LineOutcome] = []
    /// One per line once parsed: the partition of a record's session.
    var routes: [UInt8] = []
    /// One per line once parsed: why the line is bad, or `nil`.
    var badReasons: [BadLineReason?] = []
    /// Per partition, once decided: its records' results, in input order.
    var partitionResults: [[DecidedLine]]
    /// Per partition, once decided: the bytes it wrote for its lines.
    var partitionBytes: [[UInt8]]
    /// Per partition, once decided: the outcomes of SDK lines' records.
    var partitionOutcomes: [[LineOutcome]]
    /// Per partition, once decided, when pushing: its accepted fixes, in input order.
    var partitionPushes: [[PushItem]]

    /// - Parameters:
    ///   - capacity: the initial size of ``storage`` in bytes.
    ///   - partitions: the number of engine partitions.
    init(capacity: Int, partitions: Int) {
        storage = .allocate(byteCount: capacity, alignment: 16)
        base = UnsafePointer(storage.baseAddress!.assumingMemoryBound(to: UInt8.self))
        partitionBytes = Array(repeating: [], count: partitions)
        partitionResults = Array(repeating: [], count: partitions)
        partitionOutcomes = Array(repeating: [], count: partitions)
        partitionPushes = Array(repeating: [], count: partitions)
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
        mapped = nil
        endsBurst = false
        lines.removeAll(keepingCapacity: true)
        records.removeAll(keepingCapacity: true)
        outcomes.removeAll(keepingCapacity: true)
        routes.removeAll(keepingCapacity: true)
        badReasons.removeAll(keepingCapacity: true)
        for i in partitionBytes.indices {
            partitionBytes[i].removeAll(keepingCapacity: true)
            partitionResults[i].removeAll(keepingCapacity: true)
            partitionOutcomes[i].removeAll(keepingCapacity: true)
            partitionPushes[i].removeAll(keepingCapacity: true)
        }
    }

    /// The bytes of line `i`.
    @inline(__always)
    func line(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        let span = lines[i]
        return UnsafeBufferPointer(start: base + span.start,
                                   count: span.count)
    }
}

extension Array {
    /// Replaces the contents with `count` copies of `value`, in the storage the array already has
    /// when it is large enough (no new allocation).
    mutating func refill(_ value: Element, count: Int) {
        removeAll(keepingCapacity: true)
        append(contentsOf: repeatElement(value, count: count))
    }
}
