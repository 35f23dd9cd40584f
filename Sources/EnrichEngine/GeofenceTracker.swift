import GeoModel

/// Rule 11's transitions for the sessions of one session table: the pure state machine that
/// turns a session's consecutive accepted fixes, each with the fences holding it
/// (``Enrichment/geofences``), into exits, enters and dwells.
///
/// The fences of a session's previous accepted fix are that fix's own list, which the table
/// keeps as the session's newest enrichment: nothing more is stored per session, but for the
/// dwell's stays (when a dwell time is set, for sessions inside a fence: the time each stay
/// began and whether its dwell has been given).
///
/// A session's fences are forgotten, silently (no exit), when its state is (an opt-out, an
/// eviction: ``forget(_:)``), and also when an accepted fix comes more than `forgetAfter`
/// (the engine's ``EngineConfiguration/effectiveEvictAfter``) after the session's previous
/// one. That second rule makes the answer the same whether or not the table has evicted the
/// session yet (which depends on how many sessions share the table, so on the partitioning
/// and the worker count): a session that eviction would have forgotten is forgotten always.
///
/// Pure value logic: no clock (times are the fixes'), no I/O; tested alone.
struct GeofenceTracker {
    /// Reads the lists' fence numbers.
    let lists: GeofenceListTable
    /// Milliseconds from a stay's enter to its dwell, when dwells are asked for.
    let dwell: Int64?
    /// Milliseconds between two accepted fixes of a session beyond which the first one's fences
    /// are forgotten.
    let forgetAfter: Int64

    /// A session's stay in one fence: the enter fix's time, and whether the dwell was given.
    struct Stay: Equatable {
        var fence: UInt32
        var entered: Int64
        var dwelled: Bool
    }

    /// The stays of sessions inside at least one fence, in ascending order of fence (only with
    /// a dwell time).
    private var stays: [SessionID: [Stay]] = [:]
    /// Scratch lists of fence numbers, kept for their storage.
    private var before: [UInt32] = []
    private var after: [UInt32] = []

    init(lists: GeofenceListTable, dwell: Int64?, forgetAfter: Int64) {
        self.lists = lists
        self.dwell = dwell
        self.forgetAfter = forgetAfter
    }

    /// Sessions with stays kept (for tests and memory figures).
    var sessionsWithStays: Int { stays.count }

    /// Appends the transitions of `session`'s accepted fix `fix`, whose previous accepted fix
    /// (the session's newest) is `previous` (`nil` when the session has no state).
    ///
    /// - Complexity: O(1) when the fix is in the same fences as the previous one and no dwell
    ///   is set; else O(a + b) in the two lists' lengths, plus a hash of the session id with a
    ///   dwell time.
    mutating func update(session: SessionID, from previous: Enrichment?, to fix: Enrichment,
                         transitions: inout [GeofenceTransition]) {
        let t = fix.fixTimestamp.milliseconds
        let now = fix.geofences ?? .empty
        var then = GeofenceList.empty
        if let previous, t - previous.fixTimestamp.milliseconds <= forgetAfter {
            then = previous.geofences ?? .empty
        } else if previous != nil && dwell != nil {
            stays.removeValue(forKey: session)
        }
        if now != then {
            lists.fences(of: then, into: &before)
            lists.fences(of: now, into: &after)
            appendCrossings(session, fix, &transitions)
        }
        guard let dwell else { return }
        if now.isEmpty {
            if !then.isEmpty { stays.removeValue(forKey: session) }
            return
        }
        if now == then {
            // the fences are the same: only a dwell can be due
            guard var kept = stays[session], kept.contains(where: { !$0.dwelled }) else { return }
            appendDwells(session, fix, dwell, &kept, &transitions)
            stays[session] = kept
            return
        }
        // the stays of the fences still held carry on; each fence entered begins one
        let old = stays[session] ?? []
        var kept: [Stay] = []
        kept.reserveCapacity(after.count)
        var i = 0
        for fence in after {
            while i < old.count && old[i].fence < fence { i += 1 }
            kept.append(i < old.count && old[i].fence == fence ? old[i] : Stay(fence: fence, entered: t, dwelled: false))
        }
        appendDwells(session, fix, dwell, &kept, &transitions)
        stays[session] = kept
    }

    /// The exits (fences of `before` not in `after`), then the enters (the other way), each in
    /// ascending order, as both lists are.
    private func appendCrossings(_ session: SessionID, _ fix: Enrichment, _ transitions: inout [GeofenceTransition]) {
        Self.forEachMissing(from: after, in: before) { transitions.append(transition(session, $0, .exit, fix)) }
        Self.forEachMissing(from: before, in: after) { transitions.append(transition(session, $0, .enter, fix)) }
    }

    /// Calls `body` with each number of `list` that `other` lacks, ascending; both ascending.
    /// (Visited, not returned: an array of them was an allocation for every fix in a fence.)
    @inline(__always)
    private static func forEachMissing(from other: [UInt32], in list: [UInt32], _ body: (Int) -> Void) {
        var j = 0
        for n in list {
            while j < other.count && other[j] < n { j += 1 }
            if j == other.count || other[j] != n { body(Int(n)) }
        }
    }

    /// A dwell for each stay not yet given one whose time has come at `fix`.
    private func appendDwells(_ session: SessionID, _ fix: Enrichment, _ dwell: Int64, _ kept: inout [Stay],
                              _ transitions: inout [GeofenceTransition]) {
        let t = fix.fixTimestamp.milliseconds
        for k in kept.indices where !kept[k].dwelled && t - kept[k].entered >= dwell {
            kept[k].dwelled = true
            transitions.append(transition(session, Int(kept[k].fence), .dwell, fix))
        }
    }

    private func transition(_ session: SessionID, _ fence: Int, _ kind: GeofenceTransition.Kind,
                            _ fix: Enrichment) -> GeofenceTransition {
        GeofenceTransition(session: session, fence: fence, kind: kind, timestamp: fix.fixTimestamp,
                           position: fix.position)
    }

    /// Forgets a session's stays (its state is dropped: an opt-out or an eviction).
    mutating func forget(_ session: SessionID) {
        if dwell != nil && !stays.isEmpty { stays.removeValue(forKey: session) }
    }
}
