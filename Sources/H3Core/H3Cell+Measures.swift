#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The units of H3's areas (`cellAreaRads2`, `cellAreaKm2`, `cellAreaM2`); the raw values are
/// the CLI's `--unit` words.
public enum H3AreaUnit: String, Sendable, CaseIterable {
    /// Steradians: the area on the unit sphere.
    case rads2
    /// Square kilometres on the sphere of H3's authalic radius (6,371.007180918475 km).
    case km2
    /// Square metres on that sphere.
    case m2
}

/// The units of H3's lengths and distances (`greatCircleDistanceRads`, `…Km`, `…M`).
public enum H3LengthUnit: String, Sendable, CaseIterable {
    /// Radians: the angle at the sphere's centre.
    case rads
    /// Kilometres on the sphere of H3's authalic radius.
    case km
    /// Metres on that sphere.
    case m
}

/// Areas and distances on H3's sphere, with H3 4.5.0's arithmetic (`latLng.c`, `area.c`).
extension H3Cell {
    /// The cell's exact area on the sphere (H3's `cellAreaRads2`, `cellAreaKm2`, `cellAreaM2`):
    /// the signed spherical area of its boundary polygon, summed edge by edge (Cagnoli's formula,
    /// as d3-geo and H3 use it) with Kahan's compensated sum.
    ///
    /// Bit-exact with H3 4.5.0 (the same boundary, the same operations in the same order; the
    /// system's `sin`, `cos` and `atan2`).
    ///
    /// - Complexity: O(resolution), the boundary's.
    public func area(in unit: H3AreaUnit) -> Double {
        // the ring's terms as its vertices come, in H3's order (arc i from vertex i to i + 1,
        // the closing arc last), with no array: 2 allocations a cell before
        var sum = KahanSum()
        var first: SphericalArea.Vertex?
        var previous: SphericalArea.Vertex?
        boundaryRadians { v in
            let vertex = SphericalArea.Vertex(latitude: v.latitudeRadians, longitude: v.longitudeRadians)
            if let p = previous { sum.add(SphericalArea.cagnoli(p, vertex)) } else { first = vertex }
            previous = vertex
        }
        sum.add(SphericalArea.cagnoli(previous!, first!))
        let rads2 = SphericalArea.orientedArea(sum)
        switch unit {
        case .rads2: return rads2
        case .km2: return rads2 * (GreatCircle.earthRadiusKilometers * GreatCircle.earthRadiusKilometers)
        case .m2: return rads2 * (GreatCircle.earthRadiusKilometers * GreatCircle.earthRadiusKilometers) * 1_000_000
        }
    }
}

/// The area enclosed by a ring on the unit sphere, as H3 computes it (`geoLoopAreaRads2` in
/// `area.c`): shared by ``H3Cell/area(in:)`` and ``H3Cell/multiPolygon(of:)``, which orders its
/// rings and polygons by it.
enum SphericalArea {
    /// A vertex with the sine and cosine of its shifted latitude (lat/2 + π/4), which H3's
    /// `cagnoli` computes for both ends of every arc: once a vertex here, the same values
    /// (the same function of the same argument), 12 of the 90 libm calls of a hexagon's area as
    /// H3 makes them. With each sine taken with its cosine (``sinCos(_:)``), 54 calls remain.
    struct Vertex {
        let longitude: Double
        let sinLatitude: Double
        let cosLatitude: Double

        @inline(__always) init(latitude: Double, longitude: Double) {
            let shifted = latitude / 2.0 + H3Constants.m_pi / 4.0
            self.longitude = longitude
            (sinLatitude, cosLatitude) = sinCos(shifted)
        }
    }

    /// The area to the left of the ring `vertices` (radians; open, the last vertex joined to the
    /// first by a great-circle arc), in steradians within [0, 4π]: a counter-clockwise ring gives
    /// the area it encloses, a clockwise one 4π minus that.
    ///
    /// Bit-exact with H3 4.5.0: its operations in its order (Cagnoli's term per arc, Kahan's sum).
    ///
    /// - Complexity: O(n) in the vertices.
    static func loopRadians2(_ vertices: [(latitude: Double, longitude: Double)]) -> Double {
        let ring = vertices.map { Vertex(latitude: $0.latitude, longitude: $0.longitude) }
        var sum = KahanSum()
        for i in ring.indices {
            sum.add(cagnoli(ring[i], ring[(i + 1) % ring.count]))
        }
        return orientedArea(sum)
    }

    /// The sum of a ring's terms as an area in [0, 4π]: the sum is signed by the ring's
    /// orientation, and H3 adds 4π to a negative one.
    @inline(__always) static func orientedArea(_ sum: KahanSum) -> Double {
        var sum = sum
        if sum.value < 0 { sum.add(4.0 * H3Constants.m_pi) }
        return sum.value
    }

    /// The contribution of the arc from `x` to `y` to the ring's signed area (H3's `cagnoli`).
    @inline(__always) static func cagnoli(_ x: Vertex, _ y: Vertex) -> Double {
        let sa = x.sinLatitude * y.sinLatitude
        let ca = x.cosLatitude * y.cosLatitude
        let d = y.longitude - x.longitude
        let (sinD, cosD) = sinCos(d)
        return -2.0 * atan2(sa * sinD, sa * cosD + ca)
    }
}

/// Kahan's compensated summation, step for step as H3's `kadd` (`adder.h`).
struct KahanSum {
    private(set) var value = 0.0
    private var compensation = 0.0

    mutating func add(_ x: Double) {
        let y = x - compensation
        let t = value + y
        compensation = (t - value) - y
        value = t
    }
}

extension LatLng {
    /// Degrees to radians as H3's `degsToRads`: a product with π/180, not a division.
    public static func radians(fromDegrees degrees: Double) -> Double { Angle.radians(fromDegrees: degrees) }

    /// Radians to degrees as H3's `radsToDegs`: a product with 180/π.
    public static func degrees(fromRadians radians: Double) -> Double { Angle.degrees(fromRadians: radians) }

    /// The great-circle distance to `other` on H3's sphere (H3's `greatCircleDistanceRads`,
    /// `…Km`, `…M`: the haversine formula), both points in degrees as H3's bindings take them
    /// (converted with `degsToRads`).
    ///
    /// Bit-exact with H3 4.5.0 called through h3-py (`great_circle_distance`).
    public func greatCircleDistance(to other: LatLng, in unit: H3LengthUnit) -> Double {
        let rads = GreatCircle.distanceRadians(
            (Angle.radians(fromDegrees: latitude), Angle.radians(fromDegrees: longitude)),
            (Angle.radians(fromDegrees: other.latitude), Angle.radians(fromDegrees: other.longitude)))
        switch unit {
        case .rads: return rads
        case .km: return rads * GreatCircle.earthRadiusKilometers
        case .m: return rads * GreatCircle.earthRadiusKilometers * 1000
        }
    }
}

/// Per-resolution facts: counts and H3's published averages (`getNumCells`,
/// `getHexagonAreaAvgKm2`/`M2`, `getHexagonEdgeLengthAvgKm`/`M`).
extension H3Resolution {
    /// How many cells the resolution has: 2 + 120 · 7ʳ (12 of them pentagons).
    public var cellCount: Int64 {
        var p: Int64 = 1
        for _ in 0..<rawValue { p *= 7 }
        return 2 + 120 * p
    }

    /// The average hexagon area H3 publishes for the resolution, in km² or m².
    ///
    /// - Throws: ``H3Error/domain`` for ``H3AreaUnit/rads2``: H3 has no such table.
    public func averageHexagonArea(in unit: H3AreaUnit) throws(H3Error) -> Double {
        switch unit {
        case .km2: return H3Averages.hexagonAreaKm2[rawValue]
        case .m2: return H3Averages.hexagonAreaM2[rawValue]
        case .rads2: throw .domain
        }
    }

    /// The average hexagon edge length H3 publishes for the resolution, in km or m.
    ///
    /// - Throws: ``H3Error/domain`` for ``H3LengthUnit/rads``: H3 has no such table.
    public func averageHexagonEdgeLength(in unit: H3LengthUnit) throws(H3Error) -> Double {
        switch unit {
        case .km: return H3Averages.edgeLengthKm[rawValue]
        case .m: return H3Averages.edgeLengthM[rawValue]
        case .rads: throw .domain
        }
    }
}

/// The averages as H3 4.5.0 publishes them (`latLng.c`): published figures, not computed here.
enum H3Averages {
    static let hexagonAreaKm2: [Double] = [
        4.357449416078383e+06, 6.097884417941332e+05, 8.680178039899720e+04,
        1.239343465508816e+04, 1.770347654491307e+03, 2.529038581819449e+02,
        3.612906216441245e+01, 5.161293359717191e+00, 7.373275975944177e-01,
        1.053325134272067e-01, 1.504750190766435e-02, 2.149643129451879e-03,
        3.070918756316060e-04, 4.387026794728296e-05, 6.267181135324313e-06,
        8.953115907605790e-07,
    ]
    static let hexagonAreaM2: [Double] = [
        4.357449416078390e+12, 6.097884417941339e+11, 8.680178039899731e+10,
        1.239343465508818e+10, 1.770347654491309e+09, 2.529038581819452e+08,
        3.612906216441250e+07, 5.161293359717198e+06, 7.373275975944188e+05,
        1.053325134272069e+05, 1.504750190766437e+04, 2.149643129451882e+03,
        3.070918756316063e+02, 4.387026794728301e+01, 6.267181135324322e+00,
        8.953115907605802e-01,
    ]
    static let edgeLengthKm: [Double] = [
        1281.256011, 483.0568391, 182.5129565, 68.97922179,
        26.07175968, 9.854090990, 3.724532667, 1.406475763,
        0.531414010, 0.200786148, 0.075863783, 0.028663897,
        0.010830188, 0.004092010, 0.001546100, 0.000584169,
    ]
    static let edgeLengthM: [Double] = [
        1281256.011, 483056.8391, 182512.9565, 68979.22179,
        26071.75968, 9854.090990, 3724.532667, 1406.475763,
        531.4140101, 200.7861476, 75.86378287, 28.66389748,
        10.83018784, 4.092010473, 1.546099657, 0.584168630,
    ]
}
