import GeoLookup

/// The location state of one session: its accepted fixes of the last `2 × expiry` (the
/// contract's window for late events), newest last, and the newest one's trigonometry for
/// the distance filter.
///
/// Pure value logic: no clock, no I/O; ``SessionTable`` drives it.
struct SessionState {
    /// The newest accepted fix (inline: most sessions hold one or two).
    private(set) var newest: Enrichment
    /// The newest fix with its latitude's sine and cosine, for ``FixDistance``.
    private(set) var newestPoint: LocalDistance.Point
    /// Older accepted fixes still within the window, oldest first.
    private(set) var older: [Enrichment] = []

    init(first: Enrichment) {
        newest = first
        newestPoint = LocalDistance.Point(latitude: first.latitude, longitude: first.longitude)
    }

    /// The rule of contract rules 1–3 for a fix of this session (consent and accuracy are the
    /// table's); `nil` when the fix is to be accepted.
    @inline(__always)
    func rejection(of fix: Fix, configuration c: EngineConfiguration) -> RejectReason? {
        let last = newest.fixTimestamp.milliseconds
        let t = fix.timestamp.milliseconds
        if t < last { return .stale }
        // a live last fix filters by distance; an expired one does not
        if t - last < c.expiry
            && !FixDistance.isAtLeast(c.distanceFilter, from: newestPoint, latitude: fix.latitude, longitude: fix.longitude) {
            return .distance
        }
        return nil
    }

    /// Records an accepted fix and drops fixes older than `window` before it.
    mutating func accept(_ e: Enrichment, window: Int64) {
        older.append(newest)
        newest = e
        newestPoint = LocalDistance.Point(latitude: e.latitude, longitude: e.longitude)
        let oldest = e.fixTimestamp.milliseconds - window
        if let keep = older.firstIndex(where: { $0.fixTimestamp.milliseconds >= oldest }) {
            if keep > 0 { older.removeFirst(keep) }
        } else {
            older.removeAll()
        }
    }

    /// The location for an event at `time` (contract rule 4): the latest accepted fix taken at
    /// or before it, if still live then.
    @inline(__always)
    func attachment(at time: Timestamp, expiry: Int64) -> Attachment? {
        let t = time.milliseconds
        if newest.fixTimestamp.milliseconds <= t {
            let age = t - newest.fixTimestamp.milliseconds
            return age < expiry ? Attachment(enrichment: newest, ageMilliseconds: age) : nil
        }
        // a late event: search the older fixes, newest first
        for e in older.reversed() where e.fixTimestamp.milliseconds <= t {
            let age = t - e.fixTimestamp.milliseconds
            return age < expiry ? Attachment(enrichment: e, ageMilliseconds: age) : nil
        }
        return nil
    }
}
