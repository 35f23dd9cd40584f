import GeoModel

/// A session's move across a geofence at one of its accepted fixes (contract rule 11): what
/// `--geofence-events` writes a line for and the webhook sends.
public struct GeofenceTransition: Hashable, Sendable {
    /// What happened, in the order a fix's transitions come: every exit, then every enter, then
    /// every dwell (each group in ascending order of fence id).
    public enum Kind: UInt8, Sendable, CaseIterable {
        /// The fix is outside a fence the session's previous accepted fix was inside.
        case exit
        /// The fix is inside a fence the session's previous accepted fix was not inside.
        case enter
        /// The session has stayed inside the fence for the dwell time (once a stay).
        case dwell

        /// The name the contract gives it: `exit`, `enter`, `dwell`.
        public var name: StaticString {
            switch self {
            case .exit: "exit"
            case .enter: "enter"
            case .dwell: "dwell"
            }
        }
    }

    public var session: SessionID
    /// The fence's number in its set (``GeoLookup/GeofenceSet/fences``, ascending order of id);
    /// its id is ``GeofenceListTable/quotedName(of:)``.
    public var fence: Int
    public var kind: Kind
    /// The accepted fix that caused it: its time and position as the record wrote them.
    public var timestamp: Timestamp
    public var position: ReportedPosition

    public init(session: SessionID, fence: Int, kind: Kind, timestamp: Timestamp, position: ReportedPosition) {
        self.session = session
        self.fence = fence
        self.kind = kind
        self.timestamp = timestamp
        self.position = position
    }
}
