import GeoModel

/// A GPS fix, validated: finite coordinates in range, a finite non-negative accuracy.
///
/// Its numbers are kept as the record wrote them (``JSONNumber``: a JSON integer stays one in
/// the `geo` object of every line the fix enriches); the rules measure with their doubles.
public struct Fix: Hashable, Sendable {
    /// Latitude in degrees, −90…90, as written.
    public let latitude: JSONNumber
    /// Longitude in degrees, −180…180, as written.
    public let longitude: JSONNumber
    /// Accuracy radius in metres, ≥ 0, as written, when the SDK sent one.
    public let accuracy: JSONNumber?
    /// When the fix was taken.
    public let timestamp: Timestamp
    /// ``latitude`` as a double.
    public let latitudeDegrees: Double
    /// ``longitude`` as a double.
    public let longitudeDegrees: Double

    /// Why a fix cannot be built.
    public enum Invalid: Error, Hashable, Sendable {
        /// A coordinate is not finite or out of range (the contract's `bad_coordinates`).
        case coordinates
        /// The accuracy is not finite or negative (`bad_accuracy`).
        case accuracy
    }

    /// A fix from the numbers as a record wrote them.
    ///
    /// - Parameters:
    ///   - latitude: degrees north, −90…90.
    ///   - longitude: degrees east, −180…180.
    ///   - accuracy: metres, ≥ 0, or `nil`.
    ///   - timestamp: when the fix was taken.
    /// - Throws: ``Invalid`` naming the field that breaks the contract.
    public init(latitude: JSONNumber, longitude: JSONNumber, accuracy: JSONNumber?, timestamp: Timestamp) throws(Invalid) {
        let lat = latitude.doubleValue
        let lng = longitude.doubleValue
        guard lat.isFinite, lng.isFinite, abs(lat) <= 90, abs(lng) <= 180 else { throw .coordinates }
        if let a = accuracy?.doubleValue { guard a.isFinite, a >= 0 else { throw .accuracy } }
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
        self.timestamp = timestamp
        latitudeDegrees = lat
        longitudeDegrees = lng
    }

    /// A fix from doubles (written back as floats: `49.0`).
    ///
    /// - Parameters:
    ///   - latitude: degrees north, −90…90.
    ///   - longitude: degrees east, −180…180.
    ///   - accuracy: metres, ≥ 0, or `nil`.
    ///   - timestamp: when the fix was taken.
    /// - Throws: ``Invalid`` naming the field that breaks the contract.
    public init(latitude: Double, longitude: Double, accuracy: Double?, timestamp: Timestamp) throws(Invalid) {
        try self.init(latitude: .double(latitude), longitude: .double(longitude), accuracy: accuracy.map { .double($0) },
                      timestamp: timestamp)
    }
}
