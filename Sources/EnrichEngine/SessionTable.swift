/// The engine's rules over many sessions, for one thread at a time: consent, accuracy,
/// staleness, the distance filter, enrichment of accepted fixes, attachment to events, and
/// eviction of sessions that can no longer change any output.
///
/// A pure state machine apart from the enricher it calls: time is the records' own.
public struct SessionTable<Enricher: FixEnricher> {
    public let configuration: EngineConfiguration
    public private(set) var enricher: Enricher
    private var sessions: [SessionID: SessionState] = [:]
    /// Sessions opted out (or `notSet` under the deny policy): kept until they opt in.
    private var optedOut: Set<SessionID> = []
    /// The newest timestamp seen, and where the last eviction sweep stood.
    private var watermark = Int64.min
    private var lastSweep = Int64.min

    public init(configuration: EngineConfiguration, enricher: Enricher) {
        self.configuration = configuration
        self.enricher = enricher
    }

    /// Sessions with location state.
    public var liveSessions: Int { sessions.count }
    /// Sessions currently opted out.
    public var optedOutSessions: Int { optedOut.count }

    /// Applies a record's consent (contract rule 7). Call for every record, before its fix or event.
    public mutating func apply(consent: Consent?, session: SessionID) {
        switch consent {
        case .optOut?:
            optOut(session)
        case .notSet? where configuration.consentNotSet == .deny:
            optOut(session)
        case .optIn?, .notSet?:
            optedOut.remove(session)
        case nil:
            break
        }
    }

    private mutating func optOut(_ session: SessionID) {
        optedOut.insert(session)
        sessions.removeValue(forKey: session)
    }

    /// Decides on a fix and, when it is accepted, enriches and records it.
    ///
    /// - Parameters:
    ///   - fix: the validated fix.
    ///   - session: its session.
    ///   - consent: the record's consent field, if any (applied first).
    /// - Returns: the enrichment, or why the fix was rejected.
    /// - Complexity: O(1) amortised; an accepted fix costs its enrichment.
    public mutating func ingest(_ fix: Fix, session: SessionID, consent: Consent? = nil) -> FixDecision {
        apply(consent: consent, session: session)
        advance(to: fix.timestamp.milliseconds)
        if !optedOut.isEmpty && optedOut.contains(session) { return .rejected(.consent) }
        if let max = configuration.maxAccuracy, let a = fix.accuracy, a > max { return .rejected(.accuracy) }
        if let index = sessions.index(forKey: session),
           let reason = sessions.values[index].rejection(of: fix, configuration: configuration) {
            return .rejected(reason)
        }
        let accepted = makeEnrichment(fix)
        if let index = sessions.index(forKey: session) {
            sessions.values[index].accept(accepted, window: 2 * configuration.expiry)
        } else {
            sessions[session] = SessionState(first: accepted)
        }
        return .accepted(accepted)
    }

    private mutating func makeEnrichment(_ fix: Fix) -> Enrichment {
        let (h3, country, postal) = enricher.enrich(latitude: fix.latitude, longitude: fix.longitude)
        return Enrichment(latitude: fix.latitude, longitude: fix.longitude, accuracy: fix.accuracy,
                          fixTimestamp: fix.timestamp, h3: h3, country: country, postal: postal)
    }

    /// The location for an event of `session` at `time` (contract rule 4), or `nil`.
    ///
    /// - Parameter consent: the record's consent field, if any (applied first).
    /// - Complexity: O(1) for an event at or after the newest fix; O(k) for a late one, k the
    ///   session's fixes in the window.
    public mutating func attach(session: SessionID, at time: Timestamp, consent: Consent? = nil) -> Attachment? {
        apply(consent: consent, session: session)
        advance(to: time.milliseconds)
        return sessions[session]?.attachment(at: time, expiry: configuration.expiry)
    }

    /// Moves the watermark and, once per expiry period, evicts sessions whose newest fix is
    /// older than `evictAfter` behind it: no record at most `evictAfter − expiry` late can
    /// meet such a session's state (a fix would be neither stale nor within its expiry, an
    /// event would find no live fix), so dropping it changes no output.
    @inline(__always)
    private mutating func advance(to t: Int64) {
        guard t > watermark else { return }
        watermark = t
        if lastSweep == .min { lastSweep = t }
        if t - lastSweep >= configuration.expiry { sweep() }
    }

    /// Evicts what the watermark allows now.
    ///
    /// - Complexity: O(n) in the live sessions; run once per expiry period of stream time.
    public mutating func sweep() {
        lastSweep = watermark
        let cutoff = watermark - configuration.effectiveEvictAfter
        guard cutoff > Int64.min / 2 else { return }
        // filter builds a fresh, right-sized table, so memory follows the live sessions down
        sessions = sessions.filter { $0.value.newest.fixTimestamp.milliseconds >= cutoff }
    }
}
