import CMemoryHints
import GeoModel

/// Everything of ``SessionTable`` but its enricher: the sessions' states and the rules over them
/// (consent, accuracy, staleness, the distance filter, attachment, eviction).
///
/// Split from the generic table so that this, the bulk of the work, is compiled and optimised
/// once, here, whatever the enricher; the table's own inlinable methods are a few lines that the
/// caller's module specialises for its enricher (an unspecialised generic method reaches every
/// stored property through type metadata and every value through witness tables).
///
/// Storage, for n live sessions: a dense array of n ``SessionState``s (112 bytes each), a
/// ``SessionIndex`` of 8-byte slots at most 3/4 full, and a shared ``FixHistory`` of the older
/// fixes that sessions keep for late events. A decision reads the state in place.
@usableFromInline
struct SessionStore {
    @usableFromInline let configuration: EngineConfiguration
    private var index = SessionIndex()
    private var states: [SessionState] = []
    private var history = FixHistory()
    /// Sessions opted out (or `notSet` under the deny policy): kept until they opt in.
    private var optedOut: Set<SessionID> = []
    /// The stream's time for eviction: the newest timestamp seen, except that a jump ahead
    /// further than eviction tolerates is believed only once two sessions report it (see
    /// ``advance(to:session:)``). And where the last eviction sweep stood.
    private var watermark = Int64.min
    private var lastSweep = Int64.min
    /// A jump ahead that one session alone has reported so far: its time and the session's
    /// ``SessionID/stableHash``.
    private var unconfirmedJump: (time: Int64, session: UInt64)? = nil
    /// Rule 11's transitions, when the enrichments carry fence lists.
    private var geofences: GeofenceTracker?

    /// - Parameters:
    ///   - configuration: the rules' parameters.
    ///   - geofenceLists: the fence set's table, when accepted fixes carry the fences holding
    ///     them (then ``record(_:session:_:transitions:)`` gives their transitions).
    @usableFromInline
    init(configuration: EngineConfiguration, geofenceLists: GeofenceListTable? = nil) {
        self.configuration = configuration
        geofences = geofenceLists.map {
            GeofenceTracker(lists: $0, dwell: configuration.geofenceDwell, forgetAfter: configuration.effectiveEvictAfter)
        }
    }

    @usableFromInline var liveSessions: Int { states.count }
    @usableFromInline var optedOutSessions: Int { optedOut.count }
    /// Sessions whose dwell stays the geofence tracker keeps (0 without fences or a dwell time).
    var geofenceSessionsWithStays: Int { geofences?.sessionsWithStays ?? 0 }

    /// What the store has allocated: room for states, index slots, and fix pool nodes (in use or
    /// free); for checking that memory follows the live sessions down.
    var allocated: (states: Int, indexSlots: Int, historyNodes: Int) {
        (states.capacity, index.capacity, history.allocatedNodes)
    }

    /// What ``decide(_:session:consent:)`` found, for ``record(_:session:_:)`` to act on without
    /// looking the session up again.
    @usableFromInline
    enum Decision {
        /// The fix is rejected.
        case rejected(RejectReason)
        /// The fix is accepted for the session whose state is at `entry`.
        case update(entry: Int)
        /// The fix is accepted for a session without state; it goes in the empty `slot`.
        case insert(slot: Int)
    }

    /// Asks the memory system for the index slot of the session whose id hashes to `later`, and
    /// for the state of the one whose id hashes to `sooner` through its slot, asked for
    /// earlier (``SessionTable/prefetch(slotOf:stateOf:)``); 0 asks for nothing.
    ///
    /// `mutating` though it changes nothing: called through the generic table, a non-mutating
    /// method copied the table, its arrays retained and released, on every call.
    @usableFromInline
    mutating func prefetch(slotOf later: UInt64, stateOf sooner: UInt64) {
        if later != 0 { index.prefetchSlot(later) }
        guard sooner != 0, let entry = index.likelyEntry(sooner), entry < states.count else { return }
        states.withUnsafeBufferPointer { states in
            // both of the state's cache lines: a decision reads the first, an attachment both
            let state = UnsafeRawPointer(states.baseAddress! + entry)
            geo_prefetch_for_reading(state)
            geo_prefetch_for_reading(state + MemoryLayout<SessionState>.stride - 1)
        }
    }

    /// Applies a record's consent: an opt-out (or `notSet` under the deny policy) drops the
    /// session's state and holds until an `optIn`.
    @usableFromInline
    mutating func apply(consent: Consent?, session: SessionID) {
        switch consent {
        case .optOut?:
            optOut(session)
        case .notSet? where configuration.consentNotSet == .deny:
            optOut(session)
        case .optIn?:
            optedOut.remove(session)
        case .notSet?, nil:
            // allowed: a session never opted out is treated as opted in, and an opt-out stays in
            // force until an explicit optIn (as the peer decides)
            break
        }
    }

    private mutating func optOut(_ session: SessionID) {
        optedOut.insert(session)
        remove(session)
    }

    /// Drops a session's state, if it has one.
    private mutating func remove(_ session: SessionID) {
        let (slot, found) = index.find(session, in: states)
        if let entry = found { removeState(at: entry, slot: slot) }
    }

    /// Drops the state at `entry`, whose index slot is `slot`: its older fixes are freed, its
    /// slot emptied, and the last state moves into its place so the array stays dense.
    ///
    /// - Complexity: O(k) expected, k the session's older fixes.
    private mutating func removeState(at entry: Int, slot: Int) {
        history.releaseAll(from: states[entry].olderHead)
        geofences?.forget(states[entry].id)
        index.remove(at: slot, in: states)
        let last = states.count - 1
        if entry != last {
            states.swapAt(entry, last)
            index.move(entry: last, to: entry, in: states)
        }
        states.removeLast()
    }

    /// Whether a fix is rejected (its session opted out, it is less accurate than allowed, older
    /// than the session's newest fix, or too near that fix while it is live), and if not, where
    /// its session's state is or goes.
    ///
    /// - Complexity: O(1) expected; once per expiry period of stream time, the sweep's O(n).
    @usableFromInline
    mutating func decide(_ fix: Fix, session: SessionID, consent: Consent?) -> Decision {
        if consent != nil { apply(consent: consent, session: session) }
        advance(to: fix.timestamp.milliseconds, session: session)
        if !optedOut.isEmpty && optedOut.contains(session) { return .rejected(.consent) }
        if let max = configuration.maxAccuracy, let a = fix.position.accuracyMetres, a > max { return .rejected(.accuracy) }
        let (slot, found) = index.find(session, in: states)
        guard let entry = found else { return .insert(slot: slot) }
        // only the numbers are read out of the array: with a method of the state itself, the
        // optimiser copies the whole state (retaining its id) around the distance filter's calls
        if let reason = states[entry].latest.rejection(of: fix, configuration: configuration) { return .rejected(reason) }
        return .update(entry: entry)
    }

    /// Records the enrichment of a fix that ``decide(_:session:consent:)`` accepted, with nothing
    /// else done to the store in between, and appends its geofence transitions (rule 11) to
    /// `transitions` when the store has fences.
    ///
    /// - Complexity: O(1) amortised; with fences, the tracker's
    ///   (``GeofenceTracker/update(session:from:to:transitions:)``).
    @usableFromInline
    mutating func record(_ accepted: Enrichment, session: SessionID, _ decision: Decision,
                         transitions: inout [GeofenceTransition]) {
        switch decision {
        case .update(let entry):
            if geofences != nil {
                geofences!.update(session: session, from: states[entry].newest, to: accepted, transitions: &transitions)
            }
            states[entry].accept(accepted, window: 2 * configuration.expiry, history: &history)
        case .insert(var slot):
            if geofences != nil {
                geofences!.update(session: session, from: nil, to: accepted, transitions: &transitions)
            }
            if index.isFull(count: states.count) {
                index = SessionIndex(capacity: 2 * index.capacity, states: states)
                slot = index.find(session, in: states).slot
            }
            index.insert(session, entry: states.count, at: slot)
            states.append(SessionState(id: session, first: accepted))
        case .rejected:
            preconditionFailure("record(_:session:_:) called for a rejected fix")
        }
    }

    /// The location for an event of `session` at `time`: the latest accepted fix taken at or
    /// before it, if still live then; else `nil`.
    ///
    /// - Complexity: O(1) expected for an event at or after the newest fix; O(k) for a late one,
    ///   k the session's older fixes.
    @usableFromInline
    mutating func attach(session: SessionID, at time: Timestamp, consent: Consent?) -> Attachment? {
        if consent != nil { apply(consent: consent, session: session) }
        // no fix is taken outside the range (Fix refuses it), so no fix is live there; and the
        // arithmetic below is only safe inside it
        guard Timestamp.representable.contains(time.milliseconds) else { return nil }
        advance(to: time.milliseconds, session: session)
        guard let entry = index.find(session, in: states).entry else { return nil }
        // through the buffer, the state is read in place, not copied with its id (see decide)
        return states.withUnsafeBufferPointer { $0[entry].attachment(at: time, expiry: configuration.expiry, history: history) }
    }

    /// Moves the watermark and, once per expiry period, evicts sessions whose newest fix is
    /// older than `evictAfter` behind it: no record at most `evictAfter − expiry` late can
    /// meet such a session's state (a fix would be neither stale nor within its expiry, an
    /// event would find no live fix), so dropping it changes no output.
    ///
    /// A watermark too far ahead is what does damage: every record behind it by more than
    /// `evictAfter − expiry` may find its session evicted (its events lose `geo`), and while
    /// the stream catches up nothing is evicted at all. So one record cannot move it that far:
    /// a jump beyond `evictAfter − expiry` waits until a record of another session jumps too,
    /// and then goes to the nearer of the two. A device whose clock is years ahead then costs
    /// its own session only (whose later fixes are stale, as the rules say); a real gap in
    /// the stream is believed at its second session's first record. Holding the watermark
    /// back never changes an answer (eviction only forgets what no record can meet); it only
    /// delays forgetting.
    @inline(__always)
    private mutating func advance(to t: Int64, session: SessionID) {
        guard t > watermark else { return }
        // both in Timestamp.representable (or the watermark .min): no overflow
        if watermark != .min && t - watermark > configuration.effectiveEvictAfter - configuration.expiry {
            guard let confirmed = confirmJump(to: t, session: session.stableHash) else { return }
            watermark = confirmed
        } else {
            watermark = t
        }
        if lastSweep == .min { lastSweep = watermark }
        if watermark - lastSweep >= configuration.expiry && states.count >= configuration.evictionThreshold { sweep() }
    }

    /// The watermark a jump to `t` by `session` may move to: the nearer of it and an earlier
    /// jump by another session still ahead, or `nil` while no other session has confirmed it.
    @inline(never)
    private mutating func confirmJump(to t: Int64, session: UInt64) -> Int64? {
        if let earlier = unconfirmedJump, earlier.time > watermark, earlier.session != session {
            unconfirmedJump = nil
            return min(earlier.time, t)
        }
        unconfirmedJump = (t, session)
        return nil
    }

    /// Evicts what the watermark allows now, and gives memory back: the states array is
    /// reallocated when it is less than half used, the fix pool compacted when more than half of
    /// it is free, and the index rebuilt for the sessions left (at most half full) when many go
    /// or it has become more than 8 times too big.
    ///
    /// - Complexity: O(n + m) in the live sessions and their kept fixes; run once per expiry
    ///   period of stream time, so O(1) amortised per record of any stream with at least one
    ///   record per session per period (and O(n) per period however sparse the stream).
    @usableFromInline
    mutating func sweep() {
        lastSweep = watermark
        let cutoff = watermark - configuration.effectiveEvictAfter
        guard cutoff > Int64.min / 2 else { return }
        func isEvicted(_ s: SessionState) -> Bool { s.newest.fixTimestamp.milliseconds < cutoff }
        var evicted = 0
        for i in states.indices where isEvicted(states[i]) { evicted += 1 }
        if evicted > 0 && 8 * evicted <= states.count {
            // a few: one at a time, from the end, so a state moved into a hole has been kept
            // already; O(1) index work each instead of a rebuild
            for entry in states.indices.reversed() where isEvicted(states[entry]) {
                removeState(at: entry, slot: index.find(states[entry].id, in: states).slot)
            }
            // many such sweeps in a row can leave the index far too big: under 1/8 full, rebuild it
            if index.capacity > 4 * SessionIndex.capacity(for: states.count) {
                index = SessionIndex(capacity: SessionIndex.capacity(for: states.count), states: states)
            }
        } else if evicted > 0 {
            for i in states.indices where isEvicted(states[i]) {
                history.releaseAll(from: states[i].olderHead)
                geofences?.forget(states[i].id)
            }
            // in place and O(n), by swaps: no copy of the ids
            states.removeAll(where: isEvicted)
            index = SessionIndex(capacity: SessionIndex.capacity(for: states.count), states: states)
        }
        if states.capacity > 2 * states.count + 16 {
            var fresh: [SessionState] = []
            fresh.reserveCapacity(states.count)
            fresh.append(contentsOf: states)
            states = fresh
        }
        if history.isSparse { history.compact(&states) }
    }
}
