import GeoModel

/// A valid canonical record as a stream keeps it from its parse to its decision: its session's
/// ``SessionID`` and the fields the decision reads (``RecordParser/parseSessionRecord(_:memory:)``).
///
/// 64 bytes, one cache line: the fix's numbers as a ``ReportedPosition``, no text of the id
/// beside the id. ``ParsedRecord`` with the id beside it was 112: the id's `String` twice, each
/// number an enum of 16 bytes, the offset a word. A stream's record is written by the worker
/// that parses its chunk and read by the one that decides its session, usually the other core:
/// 64 bytes more a record cost 5 % more CPU with two workers (alternating pairs, the 1 M-line
/// benchmark stream).
package struct SessionRecord: Sendable {
    package let session: SessionID
    /// Milliseconds since the epoch (``ParsedRecord/timestamp``).
    package let timestamp: Int64
    /// A fix's position as the record wrote it; nil for an event.
    package let position: ReportedPosition?
    /// (Before the offset, in the position's padding: after it, the struct was 65 bytes.)
    package let consent: Consent?
    /// The offset of the line's closing brace (``ParsedRecord/closingBraceOffset``; a line is
    /// at most ``RecordParser/maximumLineLength``, 1 MiB).
    package let closingBrace: Int32

    @inline(__always)
    init(session: SessionID, timestamp: Int64, consent: Consent?, fix: ParsedFix?, closingBrace: Int) {
        self.session = session
        self.timestamp = timestamp
        position = fix?.position
        self.closingBrace = Int32(truncatingIfNeeded: closingBrace)
        self.consent = consent
    }

    /// The stream's record of a parsed one.
    package init(_ record: ParsedRecord, session: SessionID) {
        self.init(session: session, timestamp: record.timestamp, consent: record.consent, fix: record.fix,
                  closingBrace: record.closingBraceOffset)
    }
}

/// What ``RecordParser/parseSessionRecord(_:memory:)`` decides about one line.
package enum SessionRecordOutcome: Sendable {
    case record(SessionRecord)
    case bad(BadLineReason)
}
