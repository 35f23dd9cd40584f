import EnrichEngine

/// The run's figures, which account for every record: each is an event, a fix (accepted or
/// rejected by reason) or an error, so
/// `records == events + fixesAccepted + fixesRejected.total + errors`; and `records == lines`
/// but in the EQWorks format, where a batch line holds many records.
public struct EnrichStatistics: Sendable, Equatable {
    /// Fixes rejected, by reason.
    public struct Rejections: Sendable, Equatable {
        public var distance = 0
        public var stale = 0
        public var accuracy = 0
        public var consent = 0
        public var total: Int { distance + stale + accuracy + consent }
    }

    /// Non-blank lines read.
    public var lines = 0
    /// Records: a line's one record, or each record of an EQWorks batch; a bad line counts as one.
    public var records = 0
    /// Valid records that are not fixes.
    public var events = 0
    /// Events that got the session's live location.
    public var eventsEnriched = 0
    /// Valid fixes (`"type":"location"`).
    public var fixes = 0
    public var fixesAccepted = 0
    public var fixesRejected = Rejections()
    /// Bad lines, each written to the error output.
    public var errors = 0
    /// Input bytes read.
    public var bytes = 0
    /// Whether the run stopped early (a signal, or `--max-errors`).
    public var stoppedEarly = false
    /// Geofence transitions by kind, when the run has fences (rule 11); `nil` without.
    public var geofenceTransitions: GeofenceTransitionCounts? = nil

    /// Geofence transitions counted by kind.
    public struct GeofenceTransitionCounts: Sendable, Equatable {
        public var enter = 0
        public var exit = 0
        public var dwell = 0

        public init() {}

        mutating func count(_ kind: GeofenceTransition.Kind) {
            switch kind {
            case .enter: enter += 1
            case .exit: exit += 1
            case .dwell: dwell += 1
            }
        }
    }

    public init() {}

    /// Whether the figures reconcile (they always should; the CLI checks before it writes them).
    public var reconciles: Bool {
        records == events + fixesAccepted + fixesRejected.total + errors
            && fixes == fixesAccepted + fixesRejected.total && eventsEnriched <= events
    }

    /// Counts a non-blank line (its records are counted with ``count(_:)``).
    mutating func countLine() { lines += 1 }

    /// Counts one record's outcome, or `n` records of the same outcome.
    mutating func count(_ outcome: LineOutcome, times n: Int = 1) {
        switch outcome {
        case .blank, .records: return
        case .error: errors += n
        case .event: events += n
        case .eventEnriched: events += n; eventsEnriched += n
        case .fixAccepted: fixes += n; fixesAccepted += n
        case .rejectedDistance: fixes += n; fixesRejected.distance += n
        case .rejectedStale: fixes += n; fixesRejected.stale += n
        case .rejectedAccuracy: fixes += n; fixesRejected.accuracy += n
        case .rejectedConsent: fixes += n; fixesRejected.consent += n
        }
        records += n
    }

    /// Counts the outcomes of `tally`.
    mutating func count(_ tally: OutcomeTally) {
        for outcome in LineOutcome.allCases where tally[outcome] > 0 { count(outcome, times: tally[outcome]) }
    }

    /// The statistics as one JSON object: `lines`, `events`, `events_enriched`, `fixes`,
    /// `fixes_accepted`, `fixes_rejected` (an object by reason) and `errors`, then
    /// `records`, `bytes` (input bytes read), `stopped_early`, `elapsed_s` (seconds, 3 decimals),
    /// with fences `geofence_transitions` (`{"enter":N,"exit":N,"dwell":N}`), and `extra`'s keys
    /// and values (already JSON), in order.
    public func json(elapsedSeconds: Double, extra: [(key: String, json: String)] = []) -> String {
        let r = fixesRejected
        var s = #"{"lines":\#(lines),"events":\#(events),"events_enriched":\#(eventsEnriched),"#
        s += #""fixes":\#(fixes),"fixes_accepted":\#(fixesAccepted),"#
        s += #""fixes_rejected":{"distance":\#(r.distance),"stale":\#(r.stale),"accuracy":\#(r.accuracy),"consent":\#(r.consent)},"#
        s += #""errors":\#(errors),"records":\#(records),"bytes":\#(bytes),"stopped_early":\#(stoppedEarly),"#
        s += #""elapsed_s":\#((elapsedSeconds * 1000).rounded() / 1000)"#
        if let g = geofenceTransitions {
            s += #","geofence_transitions":{"enter":\#(g.enter),"exit":\#(g.exit),"dwell":\#(g.dwell)}"#
        }
        for (key, json) in extra { s += #","\#(key)":\#(json)"# }
        return s + "}"
    }
}

/// Outcomes counted one by one and added to ``EnrichStatistics`` at once: a count per
/// ``LineOutcome``, by its raw value, without ``EnrichStatistics/count(_:times:)``'s `switch`
/// per line. Room for 16 outcomes (``LineOutcome`` has 10; a test holds it below 16).
struct OutcomeTally {
    private var counts = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    init() {}

    /// How many of `outcome` were counted.
    @inline(__always)
    subscript(outcome: LineOutcome) -> Int {
        withUnsafeBytes(of: counts) { $0.load(fromByteOffset: Self.offset(outcome), as: Int.self) }
    }

    /// Counts one `outcome`. In place: `tally[outcome] += 1` through the subscript copied the
    /// whole tuple out and back on every line.
    @inline(__always)
    mutating func add(_ outcome: LineOutcome) {
        withUnsafeMutableBytes(of: &counts) { counts in
            let offset = Self.offset(outcome)
            counts.storeBytes(of: counts.load(fromByteOffset: offset, as: Int.self) &+ 1, toByteOffset: offset, as: Int.self)
        }
    }

    @inline(__always)
    private static func offset(_ outcome: LineOutcome) -> Int { Int(outcome.rawValue & 15) &* MemoryLayout<Int>.stride }
}
