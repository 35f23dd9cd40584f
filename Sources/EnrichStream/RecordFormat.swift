import RecordCodec

/// How input records are read and where their enrichment goes: the contract's canonical
/// records, or one of the seed SDKs' payloads (see ``SDKFormat`` and the README's "Formats").
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
    var sdk: SDKFormat? {
        switch self {
        case .canonical: nil
        case .eqworks: .eqworks
        case .mobiletracker: .mobiletracker
        case .datacloud: .datacloud
        }
    }

    /// Whether one line can hold records of several sessions (an EQWorks batch): such a format
    /// is decided in one partition, so that the line's records meet their sessions in order.
    var mixesSessionsInALine: Bool { self == .eqworks }
}
