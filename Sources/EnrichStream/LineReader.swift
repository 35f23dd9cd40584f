import EnrichEngine
import RecordCodec

/// One input line, read and checked: what ``LineReader`` makes of it before the engine sees it.
enum CheckedLine: Sendable {
    /// Only white space: skipped, not counted.
    case blank
    /// A bad line, with its reason: it goes to the error output, never to the engine.
    case bad(BadLineReason)
    /// A canonical record and its session.
    case record(SessionRecord)
    /// An SDK payload's records and their sessions, in order (an EQWorks batch may hold several,
    /// or none).
    case records(SDKPayload)
}

/// An SDK payload line's records and their sessions, in order.
struct SDKPayload: Sendable {
    let records: [SDKRecord]
    let sessions: [SessionID]
}

/// Reads lines of one ``RecordFormat`` into ``CheckedLine``s: the record parser of the format,
/// and the session ids made (and hashed) once, here.
///
/// Holds no state, so one serves any number of threads.
struct LineReader: Sendable {
    let format: RecordFormat
    private let parser = RecordParser()
    private let sdkParser: SDKRecordParser?

    init(format: RecordFormat) {
        self.format = format
        sdkParser = format.sdk.map { SDKRecordParser(format: $0) }
    }

    /// Reads one line (without its terminator, at most ``RecordParser/maximumLineLength``
    /// bytes: a longer line is the reader's to cut and mark, see ``LineSpan/isCut``).
    func read(_ line: UnsafeBufferPointer<UInt8>) -> CheckedLine {
        if RecordParser.isBlank(line) { return .blank }
        if let sdkParser {
            switch sdkParser.parse(line) {
            case .records(let records):
                // the parser guarantees non-empty ids
                return .records(SDKPayload(records: records, sessions: records.map { SessionID($0.record.sessionID)! }))
            case .bad(let reason):
                return .bad(reason)
            }
        }
        switch parser.parse(line) {
        case .record(let record):
            return .record(SessionRecord(record, session: SessionID(record.sessionID)!))
        case .bad(let reason):
            return .bad(reason)
        }
    }

    /// ``read(_:)``, canonical records read with the reader's `memory` (its layouts and
    /// session ids, see ``ReaderMemory``): the stream's path.
    func read(_ line: UnsafeBufferPointer<UInt8>, memory: inout ReaderMemory) -> CheckedLine {
        guard sdkParser == nil else { return read(line) }
        if RecordParser.isBlank(line) { return .blank }
        switch parser.parseSessionRecord(line, memory: &memory) {
        case .record(let record): return .record(record)
        case .bad(let reason): return .bad(reason)
        }
    }
}
