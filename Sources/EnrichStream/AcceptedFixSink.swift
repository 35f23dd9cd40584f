import GeoModel

/// Receives every accepted fix of a run, to push as its session's location, once its line
/// has been written: in input order for each session, never for a line after the run stopped.
/// Called from the pipeline's writer thread; an implementation must return at once (queue the
/// work), since the output waits meanwhile.
public protocol AcceptedFixSink: Sendable {
    /// - Parameters:
    ///   - session: the fix's session id.
    ///   - body: `{"latitude":…,"longitude":…,"accuracy":…}` (JSON; accuracy left out when absent).
    func accepted(session: SessionID, body: [UInt8])
}

/// Receives every geofence transition of a run (rule 11), once the line of the fix that caused
/// it has been written: in input order, never for a line after the run stopped. Called from the
/// pipeline's writer thread, which it may hold (backpressure: the webhook waits there while its
/// queue is full, and the stream waits with it).
public protocol GeofenceTransitionSink: Sendable {
    /// - Parameters:
    ///   - session: the transition's session id.
    ///   - body: the transition's JSON object, as `--geofence-events` writes it.
    func transition(session: SessionID, body: [UInt8])
}
