#if canImport(Glibc)
import GeoModel
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GeoBridge
import GeoMath

/// One nearest-centroid search over a ``PostalGrid``: the query's constants, the scans of
/// growing radius and the final decision.
///
/// By concern: this file holds the query's constants (its trigonometry, the cheap plane
/// distance, grid coordinates); `PostalQuery+RowWalk` which cells and rows a scan visits;
/// `PostalQuery+Scanner` the sweep of their points and the candidate buffer;
/// `PostalQuery+Choice` the choice among the candidates, with the 0.1 m rounding and the exact geodesic.
struct PostalQuery {
    /// 40 candidates of 24 bytes, and a spare slot the scan writes every point it examines to
    /// (see ``Scanner/consider(_:_:_:_:)``), stay within the 1,024 bytes Swift keeps on the stack
    /// on Linux.
    static let bufferCapacity = 41

    /// A point of the grid: its code, its coordinates in units and its cheap squared distance to the query.
    struct Candidate {
        /// Its packed ``PostalCode``.
        var code: UInt32
        var latUnits: Int32
        var lngUnits: Int32
        var squared: Double
    }

    /// What a scan found, and how much to trust the cheap distance over its extent.
    struct ScanResult {
        /// Relative error bound of the cheap distance over the scanned band.
        var eps = 0.0
        var bestSquared = Double.infinity
        var buffered = 0
        var overflowed = false

        /// The coordinates in units of the point with the best cheap distance, from the buffer
        /// it was kept in (`nil` when none was found, or when the buffer overflowed and may
        /// have dropped it).
        func best(in buffer: UnsafeMutableBufferPointer<Candidate>) -> (latUnits: Int, lngUnits: Int)? {
            guard !overflowed else { return nil }
            for c in buffer[0..<buffered] where c.squared == bestSquared {
                return (Int(c.latUnits), Int(c.lngUnits))
            }
            return nil
        }
    }

    /// The cheap squared distance from the query to points given in coordinate units: the
    /// local plane with the query's radii of curvature (its error bound is the scan's `eps`).
    struct CheapDistance {
        /// The query in coordinate units and the metres per unit along each axis.
        let qy: Double, qx: Double, kLat: Double, kLng: Double

        @inline(__always) func squared(_ latUnits: Int, _ lngUnits: Int) -> Double {
            let dy = (Double(latUnits) - qy) * kLat
            let dx = (Double(lngUnits) - qx) * kLng
            return dx * dx + dy * dy
        }
    }

    /// Grid cells per degree (the query keeps no copy of the grid: the grid is an argument of
    /// each step, as a copy of it in every query cost a memcpy a search).
    let cellsPerDegree: Double
    /// The query with its trigonometry, for local distances.
    let point: LocalDistance.Point
    let cheap: CheapDistance
    /// Coordinate units per degree.
    let scale: Double

    var latitude: Double { point.latitude }
    var longitude: Double { point.longitude }
    /// |tan φ|, sin φ and cos φ at the query.
    var tanP: Double { point.absTanLatitude }
    var sinP: Double { point.sinLatitude }
    var cosP: Double { point.cosLatitude }

    init(grid: PostalGrid, latitude: Double, longitude: Double) {
        cellsPerDegree = grid.cellsPerDegree
        point = LocalDistance.Point(latitude: latitude, longitude: longitude)
        scale = Double(grid.unitsPerDegree)
        let w = 1 - LocalDistance.e2 * point.sinLatitude * point.sinLatitude
        let n1 = LocalDistance.a / w.squareRoot()
        let m1 = n1 * (1 - LocalDistance.e2) / w
        cheap = CheapDistance(qy: latitude * scale, qx: longitude * scale, kLat: m1 * LocalDistance.degree / scale,
                              kLng: n1 * point.cosLatitude * LocalDistance.degree / scale)
    }

    /// Metres per degree of longitude, a lower bound over the band `dLat` degrees around the
    /// query: 111,319.49·cos φmax, with cos φmax by angle addition for small steps.
    @inline(__always) func longitudeMetres(latitudeSpan dLat: Double) -> Double {
        let phiMax = Swift.min(abs(latitude) + dLat, 89.999)
        let step = (phiMax - abs(latitude)) * LocalDistance.degree
        let cosMax = step < 0.01
            ? cosP * (1 - step * step * 0.5) - abs(sinP) * step * 1.0001
            : cos(phiMax * LocalDistance.degree)
        return 111_319.49 * Swift.max(cosMax, 1.7e-5) / 1.001
    }

    /// The exact geodesic (`Geodesic`, bit-exact with PROJ's `geod_inverse`), for the decisions the local distance's bound
    /// leaves open.
    static func geodesic(lat1: Double, lng1: Double, lat2: Double, lng2: Double) -> Double {
        Geodesic.wgs84.distance(from: GeoPoint(latitude: lat1, longitude: lng1), to: GeoPoint(latitude: lat2, longitude: lng2))
    }

    /// Floor of a non-negative grid coordinate (truncation: no libm call).
    @inline(__always) static func gridIndex(_ x: Double) -> Int { Int(Swift.max(x, 0)) }
    @inline(__always) func gridIndex(_ x: Double) -> Int { Self.gridIndex(x) }

    /// The query's grid row and column.
    var homeRow: Int { gridIndex((latitude + 90) * cellsPerDegree) }
    var homeColumn: Int { gridIndex((longitude + 180) * cellsPerDegree) }
}
