import GeoLookup
import GeoModel
import ThreadSharing

/// The enrichment engine for an ingestion service: many threads ingest fixes and attach
/// locations to events concurrently.
///
/// Sessions are sharded by id over independent ``SessionTable``s, each behind its own mutex
/// with its own enricher, so there is no global lock on the hot path and two sessions in
/// different shards never wait for each other. Records of one session must be given in the
/// order they happened (the engine applies them in call order).
///
/// ```swift
/// let engine = try LocationEngine.standard(lookup: LocationLookup(dataDirectory: "data"))
/// let decision = engine.ingest(fix, session: id)
/// let location = engine.attach(session: id, at: eventTime)
/// ```
public final class LocationEngine<Enricher: FixEnricher>: Sendable {
    /// One shard: a session table and its enricher behind a lock (a pthread mutex, which the
    /// thread sanitizer sees; see ``ThreadSharing/Monitor``).
    @usableFromInline
    final class Shard: Sendable {
        @usableFromInline let table: Monitor<SessionTable<Enricher>>
        init(_ table: sending SessionTable<Enricher>) { self.table = Monitor(table) }
    }

    public let configuration: EngineConfiguration
    // internal and usable from inlinable code, so that `ingest` and `attach` are specialised for
    // the caller's enricher in the caller's module (see ``SessionTable``)
    @usableFromInline let shards: [Shard]
    @usableFromInline let mask: Int

    /// - Parameters:
    ///   - configuration: the rules' parameters.
    ///   - shardCount: number of shards, rounded up to a power of two (default 64).
    ///   - makeEnricher: makes one enricher per shard.
    public init(configuration: EngineConfiguration = EngineConfiguration(), shardCount: Int = 64,
                makeEnricher: () throws -> Enricher) rethrows {
        self.configuration = configuration
        var n = 1
        while n < max(1, shardCount) { n <<= 1 }
        var shards: [Shard] = []
        for _ in 0..<n { shards.append(Shard(SessionTable(configuration: configuration, enricher: try makeEnricher()))) }
        self.shards = shards
        mask = n - 1
    }

    @inlinable @inline(__always)
    func shard(_ session: SessionID) -> Shard {
        shards[Int(truncatingIfNeeded: session.stableHash >> 32) & mask]
    }

    /// Decides on a fix and, when it is accepted, enriches it (H3 cell, country, postal code).
    /// A fix is rejected when its session opted out, when it is less accurate than
    /// ``EngineConfiguration/maxAccuracy``, when it is older than the session's last accepted fix,
    /// or when it lies nearer than ``EngineConfiguration/distanceFilter`` (default 100 m) to that
    /// fix while that fix is live.
    ///
    /// - Complexity: O(1) amortised; an accepted fix costs its enrichment (about a microsecond).
    @inlinable
    public func ingest(_ fix: Fix, session: SessionID, consent: Consent? = nil) -> FixDecision {
        shard(session).table.withLock { $0.ingest(fix, session: session, consent: consent) }
    }

    /// Decides on a fix as ``ingest(_:session:consent:)`` does, and appends an accepted one's
    /// geofence transitions (rule 11) to `transitions`, when the enricher gives fence lists.
    @inlinable
    public func ingest(_ fix: Fix, session: SessionID, consent: Consent? = nil,
                       transitions: inout [GeofenceTransition]) -> FixDecision {
        shard(session).table.withLock { $0.ingest(fix, session: session, consent: consent, transitions: &transitions) }
    }

    /// The location to attach to an event of `session` at `time`: the session's latest accepted
    /// fix taken at or before `time`, if it is still live then; else `nil`.
    @inlinable
    public func attach(session: SessionID, at time: Timestamp, consent: Consent? = nil) -> Attachment? {
        shard(session).table.withLock { $0.attach(session: session, at: time, consent: consent) }
    }

    /// Applies a record's consent without a fix or an event: `optOut` drops the session's
    /// location state and rejects its fixes until an `optIn`; `notSet` follows
    /// ``EngineConfiguration/consentNotSet``.
    public func apply(consent: Consent, session: SessionID) {
        shard(session).table.withLock { $0.apply(consent: consent, session: session) }
    }

    /// Sessions holding location state, over all shards.
    public var liveSessions: Int { shards.reduce(0) { n, s in n + s.table.withLock { $0.liveSessions } } }
}

extension LocationEngine where Enricher == StandardEnricher {
    /// The engine with the standard enricher (H3Core and the bundled data) in every shard, at
    /// the configuration's H3 resolution and postal maximum distance (not the lookup's).
    ///
    /// - Throws: ``GEOSError`` when GEOS cannot create a context.
    public static func standard(configuration: EngineConfiguration = EngineConfiguration(), lookup: LocationLookup,
                                shardCount: Int = 64) throws -> LocationEngine<StandardEnricher> {
        try LocationEngine(configuration: configuration, shardCount: shardCount) {
            try StandardEnricher(lookup: lookup, configuration: configuration)
        }
    }
}
