import GeoModel

/// A GPS fix, validated: finite coordinates in range, a finite non-negative accuracy.
///
/// Its numbers are kept as the record wrote them (``ReportedPosition``: a JSON integer stays one
/// in the `geo` object of every line the fix enriches); the rules measure with their doubles.
public struct Fix: Hashable, Sendable {
    /// The position, as written, with its doubles.
    public let position: ReportedPosition
    /// When the fix was taken.
    public let timestamp: Timestamp

    /// Why a fix cannot be built.
    public enum Invalid: Error, Hashable, Sendable {
        /// A coordinate is not finite or out of range (the contract's `bad_coordinates`).
        case coordinates
        /// The accuracy is not finite or negative (`bad_accuracy`).
        case accuracy
        /// The time is outside ``Timestamp/representable``, years 1 to 9999 UTC (`bad_timestamp`).
        case timestamp
    }

    /// A fix from the numbers as a record wrote them.
    ///
    /// - Parameters:
    ///   - latitude: degrees north, −90…90.
    ///   - longitude: degrees east, −180…180.
    ///   - accuracy: metres, ≥ 0, or `nil`.
    ///   - timestamp: when the fix was taken, in ``Timestamp/representable``.
    /// - Throws: ``Invalid`` naming the field that breaks the contract.
    @inlinable
    public init(latitude: JSONNumber, longitude: JSONNumber, accuracy: JSONNumber?, timestamp: Timestamp) throws(Invalid) {
        try self.init(position: ReportedPosition(latitude: latitude, longitude: longitude, accuracy: accuracy),
                      timestamp: timestamp)
    }

    /// A fix from a position as a record wrote it.
    ///
    /// - Parameters:
    ///   - position: the coordinates (−90…90, −180…180) and accuracy (≥ 0, or none) as written.
    ///   - timestamp: when the fix was taken, in ``Timestamp/representable``.
    /// - Throws: ``Invalid`` naming the field that breaks the contract.
    @inlinable @inline(__always)
    public init(position: ReportedPosition, timestamp: Timestamp) throws(Invalid) {
        let lat = position.latitudeDegrees
        let lng = position.longitudeDegrees
        guard lat.isFinite, lng.isFinite, abs(lat) <= 90, abs(lng) <= 180 else { throw .coordinates }
        if let a = position.accuracyMetres { guard a.isFinite, a >= 0 else { throw .accuracy } }
        guard Timestamp.representable.contains(timestamp.milliseconds) else { throw .timestamp }
        self.position = position
        self.timestamp = timestamp
    }

    /// A fix from doubles (written back as floats: `49.0`).
    ///
    /// - Parameters:
    ///   - latitude: degrees north, −90…90.
    ///   - longitude: degrees east, −180…180.
    ///   - accuracy: metres, ≥ 0, or `nil`.
    ///   - timestamp: when the fix was taken.
    /// - Throws: ``Invalid`` naming the field that breaks the contract.
    @inlinable
    public init(latitude: Double, longitude: Double, accuracy: Double?, timestamp: Timestamp) throws(Invalid) {
        try self.init(latitude: .double(latitude), longitude: .double(longitude), accuracy: accuracy.map { .double($0) },
                      timestamp: timestamp)
    }

    /// The latitude as written.
    @inlinable public var latitude: JSONNumber { position.latitude }
    /// The longitude as written.
    @inlinable public var longitude: JSONNumber { position.longitude }
    /// The accuracy as written, when there was one.
    @inlinable public var accuracy: JSONNumber? { position.accuracy }
    /// The latitude in degrees, for arithmetic.
    @inlinable public var latitudeDegrees: Double { position.latitudeDegrees }
    /// The longitude in degrees, for arithmetic.
    @inlinable public var longitudeDegrees: Double { position.longitudeDegrees }
}
