/// A position on the WGS84 ellipsoid, in degrees.
///
/// The value is not validated: `Geodesic` returns NaN for a latitude outside −90...90 (PROJ's
/// contract, which it follows), and GEOS treats the point as plain planar `x = longitude`, `y = latitude`.
/// Callers validate coordinates once, where they enter the system.
///
/// Coordinates are personal data: don't log them.
public struct GeoPoint: Sendable, Hashable {
    /// Geodetic latitude in degrees, positive north; meaningful in −90...90.
    public var latitude: Double
    /// Longitude in degrees, positive east; any finite value (−180...180 by convention).
    public var longitude: Double

    /// Creates a point from a latitude and a longitude.
    /// - Parameters:
    ///   - latitude: Degrees north of the equator, in −90...90.
    ///   - longitude: Degrees east of Greenwich.
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }
}
