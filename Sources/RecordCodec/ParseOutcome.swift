/// What ``RecordParser`` decides about one line: a record for the engine, or a bad line.
///
/// Bad lines are data, not errors: the caller writes them to the error output with their reason
/// and carries on.
public enum ParseOutcome: Sendable, Equatable {
    /// A valid record.
    case record(ParsedRecord)
    /// A line the engine must not see, with the first rule it breaks.
    case bad(BadLineReason)
}
