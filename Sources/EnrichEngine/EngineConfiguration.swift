import H3Core

/// How the engine decides and enriches. Defaults are the contract's (the Data Cloud seed's
/// location settings).
public struct EngineConfiguration: Sendable, Equatable {
    /// What `notSet` consent means.
    public enum NotSetPolicy: String, Sendable, CaseIterable {
        /// Treated as opted in (the default).
        case allow
        /// Treated as opted out: state dropped, fixes rejected as `consent`.
        case deny
    }

    /// Minimum WGS84 geodesic distance in metres between a session's accepted fixes while the
    /// earlier one is live. Default 100.
    public var distanceFilter: Double = 100
    /// How long an accepted fix stays live for events, in milliseconds: [t, t + expiry).
    /// Default 60,000.
    public var expiry: Int64 = 60_000
    /// Resolution of the H3 cell of each accepted fix. Default 15.
    public var h3Resolution: H3Resolution = .finest
    /// Largest distance in metres to a postal-code centroid. Default 20,000.
    public var postalMaxDistance: Double = 20_000
    /// When set, fixes with a larger accuracy radius (metres) are rejected as `accuracy`. Default off.
    public var maxAccuracy: Double? = nil
    /// What `notSet` consent means. Default ``NotSetPolicy/allow``.
    public var consentNotSet: NotSetPolicy = .allow
    /// Sessions quiet for longer than this, behind the newest timestamp the engine has seen, are
    /// evicted (milliseconds; default 2 × expiry). Output is unchanged as long as no record
    /// arrives more than `evictAfter − expiry` behind that newest timestamp; see the README.
    public var evictAfter: Int64? = nil
    /// Eviction runs only while a session table holds at least this many live sessions
    /// (default 65,536, about 10 MB a table): below it, nothing is forgotten, so the output is
    /// exactly as without eviction however out of order the input (or a far-future timestamp)
    /// is; above it, memory is bounded by the eviction rule. 0 evicts whenever the rule allows.
    public var evictionThreshold: Int = 65_536
    /// With fences (contract rule 11), milliseconds a session stays inside a fence, from the
    /// accepted fix that entered it, before the first accepted fix that gives a `dwell`
    /// transition (once a stay). Default off (no dwells).
    public var geofenceDwell: Int64? = nil

    public init() {}

    /// `evictAfter`, or its default of twice the expiry.
    public var effectiveEvictAfter: Int64 { evictAfter ?? 2 * expiry }
}
