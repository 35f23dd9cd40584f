#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CSinCos

/// A point in 3D cartesian coordinates; on the unit sphere for geographic points
/// (x towards 0°N 0°E, y towards 0°N 90°E, z towards the north pole).
///
/// Every operation spells out H3 4.5.0's arithmetic in the same order, so results agree to
/// the bit with the C library on the same libm.
struct Vec3: Equatable, Sendable {
    var x: Double
    var y: Double
    var z: Double

    /// The unit vector of a point given in radians.
    @inline(__always) init(latitudeRadians lat: Double, longitudeRadians lng: Double) {
        let (sinLat, r) = sinCos(lat)
        let (sinLng, cosLng) = sinCos(lng)
        x = cosLng * r
        y = sinLng * r
        z = sinLat
    }

    @inline(__always) init(x: Double, y: Double, z: Double) {
        self.x = x
        self.y = y
        self.z = z
    }

    /// Latitude in radians, `asin(z)`.
    @inline(__always) var latitudeRadians: Double { asin(z) }
    /// Longitude in radians, `atan2(y, x)`.
    @inline(__always) var longitudeRadians: Double { atan2(y, x) }

    /// `a * v1 + b * v2`, component-wise.
    @inline(__always) static func linearCombination(_ a: Double, _ v1: Vec3, _ b: Double, _ v2: Vec3) -> Vec3 {
        Vec3(x: a * v1.x + b * v2.x, y: a * v1.y + b * v2.y, z: a * v1.z + b * v2.z)
    }

    @inline(__always) func cross(_ v: Vec3) -> Vec3 {
        Vec3(x: y * v.z - z * v.y, y: z * v.x - x * v.z, z: x * v.y - y * v.x)
    }

    @inline(__always) func dot(_ v: Vec3) -> Double { x * v.x + y * v.y + z * v.z }

    /// Scales to unit length; a zero (or underflowing) vector becomes exactly zero.
    @inline(__always) mutating func normalize() {
        let norm = dot(self).squareRoot()
        let s = norm > 0.0 ? 1.0 / norm : 0.0
        x *= s
        y *= s
        z *= s
    }

    /// Squared euclidean distance to `v`.
    @inline(__always) func distanceSquared(_ v: Vec3) -> Double {
        let d = Vec3.linearCombination(1.0, self, -1.0, v)
        return d.dot(d)
    }

    /// Local north and east unit directions on the tangent plane at this point (not at a pole).
    @inline(__always) func tangentBasis() -> (north: Vec3, east: Vec3) {
        let northPole = Vec3(x: 0.0, y: 0.0, z: 1.0)
        var north = Vec3.linearCombination(1.0, northPole, -northPole.dot(self), self)
        north.normalize()
        return (north, north.cross(self))
    }
}

/// `rads` brought into [0, 2π) by at most one turn, as H3's `_posAngleRads`.
@inline(__always) func positiveAngle(_ rads: Double) -> Double {
    var tmp = rads < 0.0 ? rads + H3Constants.m_2pi : rads
    if rads >= H3Constants.m_2pi { tmp -= H3Constants.m_2pi }
    return tmp
}

/// `(sin(x), cos(x))`, bit for bit, from one call of the C library where it has one (glibc's
/// `sincos`, through CSinCos): a cell's boundary and area take 4 pairs a vertex.
@inline(__always) func sinCos(_ x: Double) -> (sin: Double, cos: Double) {
    var sine = 0.0
    var cosine = 0.0
    geo_sincos(x, &sine, &cosine)
    return (sine, cosine)
}
