/// The solution of the inverse geodesic problem: the shortest path between two points on the
/// ellipsoid.
public struct GeodesicInverse: Sendable, Hashable {
    /// Length of the geodesic in metres.
    public var distance: Double
    /// Azimuth of the geodesic at the start point, in degrees clockwise from north, in −180...180.
    public var initialAzimuth: Double
    /// Azimuth of the geodesic at the end point (the direction of travel on arrival, not the
    /// bearing back to the start), in degrees clockwise from north, in −180...180.
    public var finalAzimuth: Double

    /// Creates a solution from its parts.
    /// - Parameters:
    ///   - distance: Metres.
    ///   - initialAzimuth: Degrees clockwise from north at the start point.
    ///   - finalAzimuth: Degrees clockwise from north at the end point.
    public init(distance: Double, initialAzimuth: Double, finalAzimuth: Double) {
        self.distance = distance
        self.initialAzimuth = initialAzimuth
        self.finalAzimuth = finalAzimuth
    }
}
