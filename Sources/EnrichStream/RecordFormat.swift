import RecordCodec

/// How input records are read and where their enrichment goes: the contract's canonical
/// records, or one of the seed SDKs' payloads (see the README's "Formats").
public enum RecordFormat: String, Sendable, CaseIterable {
    /// The contract's records: `,"geo":{…}` before the final `}`.
    case canonical

    /// Parses one line as this format's record.
    @inline(__always)
    func parse(_ line: UnsafeBufferPointer<UInt8>, _ parser: RecordParser) -> ParseOutcome {
        switch self {
        case .canonical: parser.parse(line)
        }
    }
}
