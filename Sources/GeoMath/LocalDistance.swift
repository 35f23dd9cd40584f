#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Short geodesic distances on the WGS84 ellipsoid without the exact geodesic, with an error bound.
///
/// The mid-latitude plane approximation: with φm the mean latitude, M and N the meridional
/// and prime-vertical radii of curvature there, d = √((M·Δφ)² + (N·cos φm·Δλ)²). Against
/// Karney's geodesic (PROJ's, and GeoBridge's `Geodesic`) its error grows as d³: measured on 400,000 random pairs between
/// 41° and 84° N up to 20 km, |error| ≤ 0.062 · d³/a² · (1 + tan² φ) (plus float noise below
/// 1e-7 m). ``errorBound(distance:latitudeRadians:)`` uses three times that constant (0.2).
/// Measured again from −85° to 85° at all longitudes (GeoMathTests' `boundHoldsFromMinus85To85`:
/// 300,000 pairs a seed, a third at 100 m ± 10 m, a third 1 m to 20 km log-uniform, a third at
/// 15–20 km; four seeds), with φ the first point's latitude: the largest constant was 0.0471,
/// always near ±85° at 19–20 km, so the bound holds over the whole band with a factor 4 to
/// spare, at either end's latitude. Callers fall back to the exact geodesic whenever a decision lies
/// within the bound; beyond ±85° they use it only.
///
/// Public and `@inlinable` (its constants computed properties that fold): EnrichEngine's
/// distance filter runs on every fix and GeoLookup's postal search on every accepted one, and
/// a `package` function is not inlined into another module even when marked `@inlinable` (a
/// call, and its spills, cost as much as the formula). Pure arithmetic: the exact geodesic for
/// the decisions the bound leaves open is the caller's (GeoBridge's `Geodesic`).
public enum LocalDistance {
    /// The semi-major axis of WGS84, metres.
    @inlinable public static var a: Double { 6_378_137.0 }
    /// The flattening of WGS84.
    @inlinable public static var f: Double { 1 / 298.257223563 }
    /// The first eccentricity squared of WGS84, f(2 − f).
    @inlinable public static var e2: Double { f * (2 - f) }
    /// π/180.
    @inlinable public static var degree: Double { Double.pi / 180 }

    /// Metres between two points given in degrees.
    ///
    /// - Parameters:
    ///   - lat1, lng1: the first point, degrees.
    ///   - lat2, lng2: the second point, degrees (longitudes may be on either side of ±180°).
    /// - Returns: the plane distance, within ``errorBound(distance:latitudeRadians:)`` of the
    ///   geodesic for |φ| ≤ 85°.
    @inlinable @inline(__always)
    public static func metres(lat1: Double, lng1: Double, lat2: Double, lng2: Double) -> Double {
        let p1 = lat1 * degree
        let p2 = lat2 * degree
        var dl = (lng2 - lng1) * degree
        if dl > .pi { dl -= 2 * .pi } else if dl < -.pi { dl += 2 * .pi }
        let pm = (p1 + p2) * 0.5
        let s = sin(pm)
        let w = 1 - e2 * s * s
        let n = a / w.squareRoot()
        let m = n * (1 - e2) / w
        let dx = n * cos(pm) * dl
        let dy = m * (p2 - p1)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// ``metres(lat1:lng1:lat2:lng2:)`` from a first point given with its sine and cosine of
    /// latitude, so that no trigonometric call is needed for nearby second points: the mean
    /// latitude's sine and cosine come from the angle-addition formulas with the half
    /// difference δ, whose sine and cosine are their Taylor series (exact to 1e-19 for
    /// |δ| ≤ 0.002 rad, about 13 km; farther pairs take the plain formula).
    ///
    /// - Parameters:
    ///   - p: the first point and its trigonometry.
    ///   - lat2, lng2: the second point, degrees.
    /// - Returns: metres, within ``errorBound(distance:absTan:)`` of the geodesic for |φ| ≤ 85°.
    @inlinable @inline(__always)
    public static func metres(from p: Point, lat2: Double, lng2: Double) -> Double {
        let p2 = lat2 * degree
        let delta = (p2 - p.latitudeRadians) * 0.5
        guard abs(delta) <= 0.002 else { return metres(lat1: p.latitude, lng1: p.longitude, lat2: lat2, lng2: lng2) }
        var dl = (lng2 - p.longitude) * degree
        if dl > .pi { dl -= 2 * .pi } else if dl < -.pi { dl += 2 * .pi }
        let d2 = delta * delta
        let cosD = 1 - d2 * (0.5 - d2 * (1.0 / 24))
        let sinD = delta * (1 - d2 * (1.0 / 6 - d2 * (1.0 / 120)))
        let s = p.sinLatitude * cosD + p.cosLatitude * sinD
        let c = p.cosLatitude * cosD - p.sinLatitude * sinD
        let w = 1 - e2 * s * s
        let n = a / w.squareRoot()
        let m = n * (1 - e2) / w
        let dx = n * c * dl
        let dy = m * (2 * delta)
        return (dx * dx + dy * dy).squareRoot()
    }

    /// A point with the sine, cosine and |tangent| of its latitude, for repeated distances from it.
    @frozen
    public struct Point: Sendable, Hashable {
        public let latitude: Double, longitude: Double, latitudeRadians: Double
        public let sinLatitude: Double, cosLatitude: Double, absTanLatitude: Double

        /// A point in degrees, with its latitude's sine and cosine from ``DegreeTrigonometry``.
        ///
        /// - Parameters:
        ///   - latitude: degrees, −90…90.
        ///   - longitude: degrees.
        @inlinable @inline(__always)
        public init(latitude: Double, longitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
            latitudeRadians = latitude * LocalDistance.degree
            (sinLatitude, cosLatitude) = DegreeTrigonometry.sineAndCosine(degrees: latitude)
            absTanLatitude = abs(sinLatitude / cosLatitude)
        }
    }

    /// ``errorBound(distance:latitudeRadians:)`` with the tangent given: the bound's tan φ
    /// may be taken at either end of a pair (within 13 km the two differ by under 2 %, which the
    /// bound's factor three over the measured constant covers).
    ///
    /// - Parameters:
    ///   - d: the pair's distance, metres.
    ///   - t: |tan φ| at either end.
    /// - Returns: metres.
    @inlinable @inline(__always)
    public static func errorBound(distance d: Double, absTan t: Double) -> Double {
        let t = t * 1.02 + 0.002
        return 0.2 * d * d * d / (a * a) * (1 + t * t) + 1e-6
    }

    /// ``errorBound(distance:absTan:)`` at 85°, its largest up to there, less its constant 1e-6 m,
    /// per cubic metre of distance: 0.2 (1 + t²)/a² with t = tan 85° · 1.02 + 0.002 = 11.66,
    /// 1 + t² = 136.97 rounded up to 140: 6.8829e-13, rounded up. For callers that decide
    /// without computing the bound (EnrichEngine's distance filter brackets the distance).
    @inlinable public static var largestBoundPerCubicMetre: Double { 6.883e-13 }

    /// A bound on |``metres(lat1:lng1:lat2:lng2:)`` − geodesic| for a pair about `distance`
    /// metres apart near latitude `latitudeRadians`.
    ///
    /// - Parameters:
    ///   - d: the pair's distance, metres.
    ///   - p: the latitude of either end, radians.
    /// - Returns: metres.
    @inlinable @inline(__always)
    public static func errorBound(distance d: Double, latitudeRadians p: Double) -> Double {
        let t = tan(p)
        return 0.2 * d * d * d / (a * a) * (1 + t * t) + 1e-6
    }
}
