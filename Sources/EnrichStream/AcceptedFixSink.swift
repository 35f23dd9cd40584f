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
