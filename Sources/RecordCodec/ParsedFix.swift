import GeoModel

/// The position fields of a GPS fix (`"type":"location"`), once ``RecordParser`` has checked them.
public struct ParsedFix: Sendable, Equatable {
    /// Degrees north, in [-90, 90]. An integer when the JSON number had integer syntax.
    public var latitude: JSONNumber
    /// Degrees east, in [-180, 180]. An integer when the JSON number had integer syntax.
    public var longitude: JSONNumber
    /// Metres, >= 0 (a float `-0.0` passes: it is not below 0); `nil` when absent or `null`.
    public var accuracy: JSONNumber?

    /// Collects a fix's position fields (the parser has checked them); each parameter is the
    /// property of the same name.
    public init(latitude: JSONNumber, longitude: JSONNumber, accuracy: JSONNumber?) {
        self.latitude = latitude
        self.longitude = longitude
        self.accuracy = accuracy
    }

    /// The numbers as the engine keeps them: their doubles and how they were written.
    @inlinable
    public var position: ReportedPosition {
        ReportedPosition(latitude: latitude, longitude: longitude, accuracy: accuracy)
    }
}
