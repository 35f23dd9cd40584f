import GeoModel

/// The location state of one live session, an entry of the session table's dense array: its id,
/// its newest accepted fix with the cosine of that fix's latitude (for the distance filter),
/// and the ends of its list of older accepted fixes in the table's ``FixHistory``.
///
/// 112 bytes, laid out so that a decision reads the first 64 only: the id (24), the cosine (8),
/// the list ends (8), then the newest fix (65, see ``Enrichment``), whose position and time
/// come first. The state used to keep a 48-byte `LocalDistance.Point` (the latitude's radians,
/// sine, cosine and tangent); the distance filter now needs only the cosine, and only roughly
/// (see ``FixDistance/bracket(_:from:latitude:longitude:)``): 40 MB less a million sessions.
///
/// Pure value logic: no clock, no I/O; ``SessionStore`` drives it.
struct SessionState {
    let id: SessionID
    /// ``FixDistance/roughCosine(_:)`` of the newest fix's latitude.
    private(set) var roughCosLatitude: Double
    /// The oldest and newest of the older fixes kept, as ``FixHistory`` references (0: none).
    var olderHead: UInt32 = 0
    var olderTail: UInt32 = 0
    /// The newest accepted fix.
    private(set) var newest: Enrichment

    init(id: SessionID, first: Enrichment) {
        self.id = id
        newest = first
        roughCosLatitude = FixDistance.Origin(latitude: first.latitudeDegrees, longitude: first.longitudeDegrees).roughCosLatitude
    }

    /// The newest fix as the rules for the next fix read it: its time, and its position with
    /// the cosine kept from when it was accepted. Plain numbers, so that reading them out of the
    /// table's array copies 32 bytes, not the state with its id.
    struct Latest {
        /// The newest fix's time, epoch milliseconds.
        let time: Int64
        /// The newest fix as ``FixDistance`` measures from it.
        let origin: FixDistance.Origin

        /// Why a fix of this session is rejected by its time and place: `stale` when older than
        /// the newest fix, `distance` when nearer than the distance filter to it while it is live
        /// (consent and accuracy are the table's); `nil` when the fix is to be accepted.
        @inline(__always)
        func rejection(of fix: Fix, configuration c: EngineConfiguration) -> RejectReason? {
            let t = fix.timestamp.milliseconds
            if t < time { return .stale }
            // a live last fix filters by distance; an expired one does not
            if t - time < c.expiry
                && !FixDistance.isAtLeast(c.distanceFilter, from: origin, latitude: fix.latitudeDegrees, longitude: fix.longitudeDegrees) {
                return .distance
            }
            return nil
        }
    }

    /// The newest fix for the rules (see ``Latest``).
    @inline(__always)
    var latest: Latest {
        Latest(time: newest.fixTimestamp.milliseconds,
               origin: FixDistance.Origin(latitude: newest.latitudeDegrees, longitude: newest.longitudeDegrees,
                                          roughCosLatitude: roughCosLatitude))
    }

    /// Records an accepted fix: the newest so far becomes an older fix unless it is already out
    /// of the window (`window` milliseconds before `e`), and older fixes out of the window are
    /// dropped.
    ///
    /// - Complexity: O(1) amortised.
    @inline(__always)
    mutating func accept(_ e: Enrichment, window: Int64, history: inout FixHistory) {
        let oldest = e.fixTimestamp.milliseconds - window
        if newest.fixTimestamp.milliseconds >= oldest {
            history.append(newest, head: &olderHead, tail: &olderTail)
            if history.time(olderHead) < oldest { history.dropFixes(before: oldest, head: &olderHead, tail: &olderTail) }
        } else if olderHead != 0 {
            // the newest is out of the window, so every older fix is too
            history.releaseAll(from: olderHead)
            olderHead = 0
            olderTail = 0
        }
        newest = e
        roughCosLatitude = FixDistance.Origin(latitude: e.latitudeDegrees, longitude: e.longitudeDegrees).roughCosLatitude
    }

    /// The location for an event at `time`: the latest accepted fix taken at or before it, if
    /// still live then.
    ///
    /// - Complexity: O(1) for an event at or after the newest fix; O(k) for a late one, k the
    ///   session's older fixes.
    @inline(__always)
    func attachment(at time: Timestamp, expiry: Int64, history: FixHistory) -> Attachment? {
        let t = time.milliseconds
        if newest.fixTimestamp.milliseconds <= t {
            let age = t - newest.fixTimestamp.milliseconds
            return age < expiry ? Attachment(enrichment: newest, ageMilliseconds: age) : nil
        }
        return lateAttachment(at: t, expiry: expiry, history: history)
    }

    /// ``attachment(at:expiry:history:)`` for an event older than the newest fix: the older
    /// fixes are oldest first, so the answer is the last of them taken at or before `t`.
    private func lateAttachment(at t: Int64, expiry: Int64, history: FixHistory) -> Attachment? {
        var found: UInt32 = 0
        var node = olderHead
        while node != 0 && history.time(node) <= t {
            found = node
            node = history.next(node)
        }
        guard found != 0 else { return nil }
        let e = history.fix(found)
        let age = t - e.fixTimestamp.milliseconds
        return age < expiry ? Attachment(enrichment: e, ageMilliseconds: age) : nil
    }
}
