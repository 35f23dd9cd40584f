/// How input records are read and where their enrichment goes: the contract's canonical
/// records, or one of the seed SDKs' payloads (see ``SDKFormat`` and the README's "Formats").
///
/// Everything that differs between formats once a record is decided is said here, as data, so
/// that the stream has one decision path for all of them.
public enum RecordFormat: String, Sendable, CaseIterable {
    /// The contract's records: `,"geo":{…}` before the final `}`.
    case canonical
    /// EQWorks iOS SDK payloads and batches (``SDKFormat/eqworks``).
    case eqworks
    /// MobileTracker track payloads and location updates (``SDKFormat/mobiletracker``).
    case mobiletracker
    /// Data Cloud events and location updates (``SDKFormat/datacloud``).
    case datacloud

    /// The SDK format, for all but ``canonical``.
    public var sdk: SDKFormat? {
        switch self {
        case .canonical: nil
        case .eqworks: .eqworks
        case .mobiletracker: .mobiletracker
        case .datacloud: .datacloud
        }
    }

    /// Whether one line can hold records of several sessions (an EQWorks batch): such a format
    /// is decided in one partition, so that the line's records meet their sessions in order.
    public var mixesSessionsInALine: Bool { self == .eqworks }

    /// Whether a record's location describes the record itself, whatever the engine makes of it
    /// as a fix. An EQWorks payload is an event that carries where the device was: when the
    /// engine rejects its fix (nearer than the distance filter, stale, inaccurate), the record
    /// is still enriched with its own position. A consent rejection is not: an opted-out
    /// session gets no location at all. In the other formats a rejected fix gets nothing.
    public var rejectedFixDescribesItself: Bool { self == .eqworks }

    /// Whether every valid line is written, whatever became of its records (EQWorks: its
    /// records are events). In the other formats a line whose records are all rejected fixes
    /// is left out, unless rejected fixes are asked for.
    public var writesEveryLine: Bool { self == .eqworks }
}
