/// A GPS fix, validated: finite coordinates in range, a finite non-negative accuracy.
public struct Fix: Hashable, Sendable {
    /// Latitude in degrees, −90…90.
    public let latitude: Double
    /// Longitude in degrees, −180…180.
    public let longitude: Double
    /// Accuracy radius in metres, ≥ 0, when the SDK sent one.
    public let accuracy: Double?
    /// When the fix was taken.
    public let timestamp: Timestamp
    /// Eight bits of the caller's, carried unchanged into the fix's ``Enrichment`` (the engine
    /// never reads them). The CLI keeps there which numbers were written as JSON integers, so
    /// that an event attached to the fix later writes `49`, not `49.0`. Default 0.
    public var tag: UInt8 = 0

    /// Why a fix cannot be built.
    public enum Invalid: Error, Hashable, Sendable {
        /// A coordinate is not finite or out of range (the contract's `bad_coordinates`).
        case coordinates
        /// The accuracy is not finite or negative (`bad_accuracy`).
        case accuracy
    }

    /// - Parameters:
    ///   - latitude: degrees north, −90…90.
    ///   - longitude: degrees east, −180…180.
    ///   - accuracy: metres, ≥ 0, or `nil`.
    ///   - timestamp: when the fix was taken.
    ///   - tag: the caller's bits for the enrichment (see ``tag``).
    /// - Throws: ``Invalid`` naming the field that breaks the contract.
    public init(latitude: Double, longitude: Double, accuracy: Double?, timestamp: Timestamp,
                tag: UInt8 = 0) throws(Invalid) {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180 else { throw .coordinates }
        if let a = accuracy { guard a.isFinite, a >= 0 else { throw .accuracy } }
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.timestamp = timestamp
        self.tag = tag
    }
}
