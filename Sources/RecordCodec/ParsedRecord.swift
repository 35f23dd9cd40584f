/// One valid input record: the fields the engine needs, and where to splice `geo` into its line.
///
/// Everything else on the line is left as it is; the splice copies the line's bytes.
public struct ParsedRecord: Sendable, Equatable {
    /// The record's `session_id`, decoded from JSON (escapes resolved). Never empty.
    public var sessionID: String
    /// The instant of `timestamp` in milliseconds since the Unix epoch.
    ///
    /// A JSON integer as is, a float truncated toward zero (Python's `int()`), an ISO 8601 string
    /// as `datetime.fromisoformat` reads it, rounded half to even on the float millisecond value.
    /// Python's integers are unbounded; values beyond `Int64` saturate to `Int64.min`/`Int64.max`,
    /// so callers that subtract timestamps must not assume the difference fits.
    public var timestamp: Int64
    /// The record's `consent`; `nil` when absent or JSON `null`.
    public var consent: Consent?
    /// The position of a fix (top-level `"type"` equal to `"location"`); `nil` for an event.
    public var fix: ParsedFix?
    /// Byte offset of the object's closing `}` in the line: the splice point.
    public var closingBraceOffset: Int

    /// Collects a record's fields; each parameter is the property of the same name.
    public init(sessionID: String, timestamp: Int64, consent: Consent?, fix: ParsedFix?,
                closingBraceOffset: Int) {
        self.sessionID = sessionID
        self.timestamp = timestamp
        self.consent = consent
        self.fix = fix
        self.closingBraceOffset = closingBraceOffset
    }

    /// Whether the record is a GPS fix or an event.
    public var kind: RecordKind { fix == nil ? .event : .fix }
}

/// The two kinds of input record, told apart by the top-level `type`.
public enum RecordKind: Sendable, Hashable {
    /// `"type":"location"`: a GPS fix.
    case fix
    /// Any other `type`, or none.
    case event
}
