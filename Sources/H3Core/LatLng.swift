/// A geographic point in degrees on the WGS84 datum, as H3 treats it (a sphere).
///
/// Any finite values are accepted: H3 works on the unit vector of the point, so latitudes
/// past ±90° and longitudes outside [-180°, 180°] wrap as their sines and cosines do.
public struct LatLng: Hashable, Sendable {
    /// Latitude in degrees, positive north.
    public var latitude: Double
    /// Longitude in degrees, positive east.
    public var longitude: Double

    /// - Parameters:
    ///   - latitude: degrees, positive north.
    ///   - longitude: degrees, positive east.
    @inlinable
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// Whether both coordinates are finite (neither NaN nor infinite).
    @inlinable
    public var isFinite: Bool { latitude.isFinite && longitude.isFinite }
}

extension LatLng: CustomStringConvertible {
    public var description: String { "(\(latitude), \(longitude))" }
}

/// Degree ↔ radian conversions exactly as H3's `degsToRads` / `radsToDegs`: a product with
/// the constant π/180 (or 180/π), not a division.
enum Angle {
    @inline(__always) static func radians(fromDegrees d: Double) -> Double { d * H3Constants.m_pi_180 }
    @inline(__always) static func degrees(fromRadians r: Double) -> Double { r * H3Constants.m_180_pi }
}
