#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GeoBridge
import H3Core

/// Short geodesic distances on the WGS84 ellipsoid without PROJ, with an error bound.
///
/// The mid-latitude plane approximation: with φm the mean latitude, M and N the meridional
/// and prime-vertical radii of curvature there, d = √((M·Δφ)² + (N·cos φm·Δλ)²). Against
/// Karney's geodesic (PROJ) its error grows as d³: measured on 400,000 random pairs between
/// 41° and 84° N up to 20 km, |error| ≤ 0.062 · d³/a² · (1 + tan² φ) (plus float noise below
/// 1e-7 m). ``errorBound(distance:latitudeRadians:)`` uses three times that constant. Callers
/// fall back to PROJ whenever a decision lies within the bound.
package enum LocalDistance {
    package static let a = 6_378_137.0
    package static let f = 1 / 298.257223563
    package static let e2 = f * (2 - f)
    package static let degree = Double.pi / 180

    /// Metres between two points given in degrees; accurate to ``errorBound(distance:latitudeRadians:)``.
    @inline(__always) package static func metres(lat1: Double, lng1: Double, lat2: Double, lng2: Double) -> Double {
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
    @inline(__always) package static func metres(from p: Point, lat2: Double, lng2: Double) -> Double {
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
    package struct Point: Sendable, Hashable {
        package let latitude: Double, longitude: Double, latitudeRadians: Double
        package let sinLatitude: Double, cosLatitude: Double, absTanLatitude: Double

        package init(latitude: Double, longitude: Double) {
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
    @inline(__always) package static func errorBound(distance d: Double, absTan t: Double) -> Double {
        let t = t * 1.02 + 0.002
        return 0.2 * d * d * d / (a * a) * (1 + t * t) + 1e-6
    }

    /// A bound on |``metres(lat1:lng1:lat2:lng2:)`` − geodesic| for a pair about `distance`
    /// metres apart near latitude `latitudeRadians`.
    @inline(__always) package static func errorBound(distance d: Double, latitudeRadians p: Double) -> Double {
        let t = tan(p)
        return 0.2 * d * d * d / (a * a) * (1 + t * t) + 1e-6
    }

    /// The exact geodesic (PROJ's `geod_inverse`), for the decisions the approximation cannot make.
    @inline(__always) package static func geodesic(lat1: Double, lng1: Double, lat2: Double, lng2: Double) -> Double {
        Geodesic.wgs84.distance(from: GeoPoint(latitude: lat1, longitude: lng1),
                                to: GeoPoint(latitude: lat2, longitude: lng2))
    }
}
