/// Geodesics on an ellipsoid of revolution, by Karney's algorithms (``KarneyGeodesic``, our
/// Swift, bit-exact with PROJ's `geod_inverse`, which pyproj and the peer use): accurate to
/// about 15 nanometres on WGS84 at any distance, including nearly antipodal points.
///
/// Thread safety: a value holds only doubles fixed at `init`, so it may be shared freely
/// between threads and tasks; hence `Sendable`.
public struct Geodesic: Sendable {
    /// The WGS84 ellipsoid: a = 6378137 m, f = 1/298.257223563 (the GPS datum of mobile fixes).
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    /// Equatorial radius (semi-major axis) in metres.
    public let equatorialRadius: Double
    /// Flattening, (a − b) / a; unitless.
    public let flattening: Double

    /// The ellipsoid's series coefficients, computed once.
    private let solver: KarneyGeodesic

    // Internal: only WGS84 is needed today, and a public init would have to validate a > 0 and
    // f < 1.
    init(equatorialRadius: Double, flattening: Double) {
        self.equatorialRadius = equatorialRadius
        self.flattening = flattening
        solver = KarneyGeodesic(equatorialRadius: equatorialRadius, flattening: flattening)
    }

    /// Solves the inverse problem: the shortest path from one point to another.
    ///
    /// - Parameters:
    ///   - from: Start point, latitude in −90...90 degrees.
    ///   - to: End point, latitude in −90...90 degrees.
    /// - Returns: Distance in metres and the azimuths in degrees at both ends. All three are NaN
    ///   if a latitude is outside −90...90 or a coordinate is not finite.
    /// - Complexity: O(1): a bounded number of Newton iterations (typically two or three).
    public func inverse(from: GeoPoint, to: GeoPoint) -> GeodesicInverse {
        let solution = solver.inverse(from.latitude, from.longitude, to.latitude, to.longitude, azimuths: true)
        return GeodesicInverse(distance: solution.distance, initialAzimuth: solution.azi1,
                               finalAzimuth: solution.azi2)
    }

    /// The length of the shortest path between two points.
    ///
    /// - Parameters:
    ///   - from: Start point, latitude in −90...90 degrees.
    ///   - to: End point, latitude in −90...90 degrees.
    /// - Returns: Metres; NaN if a latitude is outside −90...90 or a coordinate is not finite.
    ///   Compare with `<` so that NaN never passes a "closer than" test.
    /// - Complexity: O(1), as `inverse(from:to:)`.
    public func distance(from: GeoPoint, to: GeoPoint) -> Double {
        // without the azimuths: their two atan2 calls skipped
        solver.inverse(from.latitude, from.longitude, to.latitude, to.longitude, azimuths: false).distance
    }
}
