import GeoLookup
import GeoModel
import H3Core

/// The engine's rules over many sessions, for one thread at a time: consent, accuracy,
/// staleness, the distance filter, enrichment of accepted fixes, attachment to events, and
/// eviction of sessions that can no longer change any output.
///
/// A pure state machine apart from the enricher it calls: time is the records' own.
///
/// The work is ``SessionStore``'s, compiled once in this module; the methods here are inlinable
/// so that the caller's module specialises them for its enricher, and an accepted fix costs one
/// direct call to the enricher rather than a generic dispatch around the whole decision.
///
/// Memory: about 150 bytes per live session (its state, 112 bytes, and its index slots), plus
/// the session id's own storage when it is longer than 15 bytes, plus 72 bytes per older
/// fix kept for late events (fixes of the last `2 × expiry` before each session's newest).
public struct SessionTable<Enricher: FixEnricher> {
    @usableFromInline var store: SessionStore
    @usableFromInline var _enricher: Enricher

    /// - Parameters:
    ///   - configuration: the rules' parameters.
    ///   - enricher: computes each accepted fix's `geo` values; when it gives fence lists
    ///     (``FixEnricher/geofenceLists``), the table gives rule 11's transitions too.
    public init(configuration: EngineConfiguration, enricher: Enricher) {
        store = SessionStore(configuration: configuration, geofenceLists: enricher.geofenceLists)
        _enricher = enricher
    }

    /// The rules' parameters.
    public var configuration: EngineConfiguration { store.configuration }
    /// The enricher, as the table has used it.
    public var enricher: Enricher { _enricher }

    /// Lets `body` change the enricher's resources (``StandardEnricher/use(_:)``), not what it
    /// computes: the table's sessions keep what it gave them.
    public mutating func withEnricher<R>(_ body: (inout Enricher) throws -> R) rethrows -> R {
        try body(&_enricher)
    }
    /// Sessions with location state.
    public var liveSessions: Int { store.liveSessions }
    /// Sessions currently opted out.
    public var optedOutSessions: Int { store.optedOutSessions }

    /// Asks the memory system for what deciding records of two sessions will read, so that a
    /// caller holding a run of records can hide a large table's cache misses (a million live
    /// sessions) behind the records before them: the index slot of the session whose
    /// ``SessionID/stableHash`` is `later`, and the state of the one whose hash is `sooner`
    /// (found through its slot, asked for some records before). 0 asks for nothing. A hint
    /// only: no state and no answer changes.
    ///
    /// - Complexity: O(1): one slot read, no probing.
    @inlinable
    public mutating func prefetch(slotOf later: UInt64, stateOf sooner: UInt64) {
        store.prefetch(slotOf: later, stateOf: sooner)
    }

    /// Applies a record's consent: `optOut` (or `notSet` under
    /// ``EngineConfiguration/NotSetPolicy/deny``) drops the session's location state and rejects
    /// its fixes until an `optIn`. Call for every record, before its fix or event.
    @inlinable
    public mutating func apply(consent: Consent?, session: SessionID) {
        store.apply(consent: consent, session: session)
    }

    /// Decides on a fix and, when it is accepted, enriches and records it.
    ///
    /// - Parameters:
    ///   - fix: the validated fix.
    ///   - session: its session.
    ///   - consent: the record's consent field, if any (applied first).
    /// - Returns: the enrichment, or why the fix was rejected.
    /// - Complexity: O(1) amortised; an accepted fix costs its enrichment.
    @inlinable
    public mutating func ingest(_ fix: Fix, session: SessionID, consent: Consent? = nil) -> FixDecision {
        var transitions: [GeofenceTransition] = []
        return ingest(fix, session: session, consent: consent, transitions: &transitions)
    }

    /// Decides on a fix as ``ingest(_:session:consent:)`` does, and appends the geofence
    /// transitions of an accepted one (rule 11: exits, then enters, then dwells, each in
    /// ascending order of fence id) to `transitions`.
    ///
    /// - Complexity: O(1) amortised; an accepted fix costs its enrichment and, with fences,
    ///   a comparison of its fence list with the session's previous one.
    @inlinable
    public mutating func ingest(_ fix: Fix, session: SessionID, consent: Consent? = nil,
                                transitions: inout [GeofenceTransition]) -> FixDecision {
        let decision = store.decide(fix, session: session, consent: consent)
        if case .rejected(let reason) = decision { return .rejected(reason) }
        let accepted = _enricher.enrich(fix.position, at: fix.timestamp)
        store.record(accepted, session: session, decision, transitions: &transitions)
        return .accepted(accepted)
    }

    /// The location for an event of `session` at `time`: the session's latest accepted fix taken
    /// at or before `time`, if it is still live then; else `nil`.
    ///
    /// - Parameter consent: the record's consent field, if any (applied first).
    /// - Complexity: O(1) for an event at or after the newest fix; O(k) for a late one, k the
    ///   session's fixes in the window.
    @inlinable
    public mutating func attach(session: SessionID, at time: Timestamp, consent: Consent? = nil) -> Attachment? {
        store.attach(session: session, at: time, consent: consent)
    }

    /// Evicts what the watermark allows now: sessions whose newest fix is more than
    /// ``EngineConfiguration/effectiveEvictAfter`` behind the newest timestamp seen. The table
    /// does this by itself once per expiry period of stream time.
    ///
    /// - Complexity: O(n) in the live sessions and their kept fixes.
    public mutating func sweep() {
        store.sweep()
    }
}
