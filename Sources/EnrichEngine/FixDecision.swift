import GeoModel

/// The location given to an event: the enrichment of the session's live fix and its age.
public struct Attachment: Hashable, Sendable {
    public var enrichment: Enrichment
    /// Event time minus fix time, in milliseconds (0 on the fix itself).
    public var ageMilliseconds: Int64
}

/// Why a fix was not accepted (the contract's reasons).
public enum RejectReason: String, Sendable, CaseIterable {
    /// Nearer than the distance filter to the session's live fix.
    case distance
    /// Older than the session's last accepted fix.
    case stale
    /// Less accurate than the configured ceiling.
    case accuracy
    /// The session opted out.
    case consent
}

/// What the engine decided about a fix.
public enum FixDecision: Hashable, Sendable {
    case accepted(Enrichment)
    case rejected(RejectReason)
}
