import EnrichEngine
import RecordCodec

/// What a ``RecordProcessor`` wrote for its lines of one batch, in input order: the writer
/// copies it out between the other partitions' lines.
struct ProcessorOutput: Sendable {
    /// The written parts of the output lines, one after the other, each followed by a `\n`
    /// (so that the writer hands the kernel a line's tail and its terminator as one piece).
    var bytes: [UInt8] = []
    /// One per line with records, in input order.
    var lines: [DecidedLine] = []
    /// The outcome of each record of the SDK lines (``DecidedLine/firstOutcome``).
    var recordOutcomes: [LineOutcome] = []
    /// The accepted fixes, in input order, when the processor collects them.
    var accepted: [AcceptedFix] = []
    /// Each record's decision, in input order, when the processor collects them (a service).
    var decisions: [RecordDecision] = []
    /// The geofence transitions of the accepted fixes, in input order (rule 11).
    var transitions: [LineTransition] = []

    /// Empties the output for the next batch, keeping its storage: a new array each batch was
    /// a fresh mapping, page-faulted in line by line.
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        recordOutcomes.removeAll(keepingCapacity: true)
        accepted.removeAll(keepingCapacity: true)
        decisions.removeAll(keepingCapacity: true)
        transitions.removeAll(keepingCapacity: true)
    }
}

/// What became of one line: the figure of ``EnrichStatistics`` it adds to.
enum LineOutcome: UInt8, Sendable, CaseIterable {
    /// Only white space: skipped, not counted.
    case blank
    /// An SDK line's records: the partition's list of record outcomes holds one per record.
    case records
    /// A bad line, written to the error output.
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

/// What a processor decided about one of its lines, and where the line's output is: nowhere,
/// the input line as it is, or the input line's first `prefix` bytes followed by `count` bytes
/// at `start` in the processor's ``ProcessorOutput/bytes`` (then the `\n` that follows them there).
///
/// A canonical line's enrichment goes before its closing brace, so its output is the input up
/// to that brace, then `,"geo":{…}}`: the processor writes only the tail, and the writer
/// gathers the input's bytes from the batch where they lie (`writev(2)`), rather than the
/// processor copying each line's ~150 bytes into its output and the writer copying them again
/// into one buffer (the two copies were 7.9 % of the 1 M-line stream's samples, `memmove`).
struct DecidedLine: Sendable {
    var outcome: LineOutcome
    var output: Output
    /// For ``Output/written``: the bytes of the input line that come first (0 when the written
    /// bytes are the whole line, as an SDK line's are).
    var prefix: Int32 = 0
    var start: Int32 = 0
    var count: Int32 = 0
    /// For ``LineOutcome/records``: where the records' outcomes are in the output's list.
    var firstOutcome: Int32 = 0
    var outcomeCount: Int32 = 0

    enum Output: UInt8, Sendable {
        case none, input, written
    }
}

/// A geofence transition with the line of the fix that caused it, as the stream hands it on
/// once that line is written (`--geofence-events`, the webhook).
struct LineTransition: Sendable {
    /// The fix's line in its batch.
    var line: Int32
    var transition: GeofenceTransition
}

/// An accepted fix, as the stream hands it on once its line is written (the push).
struct AcceptedFix: Sendable {
    /// The fix's line in its batch.
    var line: Int32
    var session: SessionID
    /// The fix's enrichment (its position as the record wrote it, its cell, country, postal code).
    var enrichment: Enrichment
}
