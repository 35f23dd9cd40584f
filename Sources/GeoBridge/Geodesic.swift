import CPROJ

/// Geodesics on an ellipsoid of revolution, computed by PROJ's implementation of Karney's
/// algorithms (`geodesic.h`): accurate to about 15 nanometres on WGS84 at any distance,
/// including nearly antipodal points.
///
/// Thread safety: the wrapped `struct geod_geodesic` is a plain C struct of doubles that
/// `geod_init` fills once and `geod_inverse` only reads (it takes a `const` pointer), so a value
/// may be shared freely between threads and tasks; hence `Sendable`.
public struct Geodesic: Sendable {
    /// The WGS84 ellipsoid: a = 6378137 m, f = 1/298.257223563 (the GPS datum of mobile fixes).
    public static let wgs84 = Geodesic(equatorialRadius: 6_378_137, flattening: 1 / 298.257223563)

    /// Equatorial radius (semi-major axis) in metres.
    public let equatorialRadius: Double
    /// Flattening, (a − b) / a; unitless.
    public let flattening: Double

    /// PROJ's precomputed series coefficients for this ellipsoid; read-only after `init`.
    private let ellipsoid: geod_geodesic

    // Internal: only WGS84 is needed today, and a public init would have to validate a > 0 and
    // f < 1, which `geod_init` does not.
    init(equatorialRadius: Double, flattening: Double) {
        self.equatorialRadius = equatorialRadius
        self.flattening = flattening
        var ellipsoid = geod_geodesic()
        geod_init(&ellipsoid, equatorialRadius, flattening)
        self.ellipsoid = ellipsoid
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
        var distance = 0.0
        var initialAzimuth = 0.0
        var finalAzimuth = 0.0
        withUnsafePointer(to: ellipsoid) { g in
            geod_inverse(g, from.latitude, from.longitude, to.latitude, to.longitude,
                         &distance, &initialAzimuth, &finalAzimuth)
        }
        return GeodesicInverse(distance: distance, initialAzimuth: initialAzimuth,
                               finalAzimuth: finalAzimuth)
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
        var distance = 0.0
        withUnsafePointer(to: ellipsoid) { g in
            // nil azimuth outputs: geod_inverse then skips the final atan2 calls.
            geod_inverse(g, from.latitude, from.longitude, to.latitude, to.longitude,
                         &distance, nil, nil)
        }
        return distance
    }
}
