#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeoBridge
import GeoMath

/// The index that decides most membership questions of a ``GeofenceSet`` without geometry.
///
/// Each fence is laid on a grid of square cells 2^-k degrees on a side, k chosen so that its box
/// spans at most 8 cells each way (`cellsAcross`), and each cell its box meets is marked:
/// *inside* (every point of the closed cell is in the fence) or *edge* (the fence's boundary
/// may pass through it); cells wholly outside are left out. A point finds its cell at each level
/// in use by `floor(coordinate · 2^k)`, which is exact (a power-of-two scale and a floor), so the
/// cell found always holds the point, even on a grid line; an inside mark answers at once and an
/// edge mark leaves the point to the exact test (``GeofenceLocator``).
///
/// Why not H3 (issue 20's polygonToCells, item 5): rule 11 puts polygon membership in the plane
/// of longitude and latitude (GEOS `covers`), where a power-of-two grid's cells are exact closed
/// rectangles and a point's cell costs two floors; H3 cells are curved in that plane (an inside
/// cell would need a margin) and a point's cell costs a projection per resolution.
///
/// Marks are conservative: a cell is *inside* only when no edge of the fence comes within
/// `margin` of it and its centre is inside, so floating-point rounding in the marking (about
/// 1e-13 degrees) can never mark wrongly; circles are marked from distances with
/// ``LocalDistance``'s error bound added.
struct GeofenceGrid: Sendable {
    /// Cells a fence's box spans, at most, each way.
    static let cellsAcross = 8.0
    /// The coarsest and finest levels (a cell of 256° and of 2^-20° ≈ 11 cm).
    static let coarsest = -8, finest = 20
    /// Degrees by which marking keeps away from a fence's edges (≈ 0.1 mm).
    static let margin = 1e-9

    /// The levels in use, ascending.
    let levels: [Int]
    /// Open-addressing table of cell keys (0 = empty) and, beside each, where its marks are.
    private let keys: [UInt64]
    private let starts: [UInt32]
    private let counts: [UInt32]
    /// Marks: fence number << 1 | 1 when the cell is inside the fence, | 0 for an edge cell.
    private let marks: [UInt32]
    private let shift: UInt64

    /// The marks of the cell holding (`latitude`, `longitude`) at level `k`, to `body`.
    @inline(__always)
    func forEachMark(level k: Int, latitude: Double, longitude: Double, _ body: (UInt32) -> Void) {
        let key = Self.key(level: k, x: Self.cellIndex(longitude, k), y: Self.cellIndex(latitude, k))
        let mask = keys.count - 1
        var i = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
        while true {
            let found = keys[i]
            if found == key {
                let start = Int(starts[i])
                for j in start..<start + Int(counts[i]) { body(marks[j]) }
                return
            }
            if found == 0 { return }
            i = (i + 1) & mask
        }
    }

    /// `floor(value · 2^k)`: exact for any double (scaling by a power of two only moves the
    /// exponent), so the cell's closed square holds the value.
    @inline(__always)
    static func cellIndex(_ value: Double, _ k: Int) -> Int64 {
        Int64((value * Double(sign: .plus, exponent: k, significand: 1)).rounded(.down))
    }

    /// A non-zero 62-bit key: the level (5 bits), x (29 bits, offset) and y (28 bits, offset).
    @inline(__always)
    static func key(level k: Int, x: Int64, y: Int64) -> UInt64 {
        let level = UInt64(k - coarsest + 1)  // 1...29, never 0: a key is never the empty slot
        let ux = UInt64(truncatingIfNeeded: x &+ (1 << 28)) & ((1 << 29) - 1)
        let uy = UInt64(truncatingIfNeeded: y &+ (1 << 27)) & ((1 << 28) - 1)
        return level << 57 | ux << 28 | uy
    }

    /// The level at which a box `width` × `height` degrees spans at most `cellsAcross` cells.
    static func level(width: Double, height: Double) -> Int {
        let span = max(width, height)
        guard span > 0 else { return finest }
        let k = Int((cellsAcross / span).log2Ceiling)
        return min(finest, max(coarsest, k))
    }

    // MARK: building

    /// Marks every fence's cells.
    init(fences: [Geofence]) {
        var byKey: [UInt64: [UInt32]] = [:]
        var levelSet = Set<Int>()
        for (n, fence) in fences.enumerated() {
            let number = UInt32(n)
            let k: Int
            switch fence.shape {
            case .polygons(let polygons):
                k = Self.markPolygon(polygons) { key, inside in byKey[key, default: []].append(number << 1 | (inside ? 1 : 0)) }
            case .circle(let center, let radius):
                k = Self.markCircle(center: center, radius: radius) { key, inside in byKey[key, default: []].append(number << 1 | (inside ? 1 : 0)) }
            }
            levelSet.insert(k)
        }
        levels = levelSet.sorted()
        var size = 64
        while size < byKey.count * 2 { size *= 2 }
        var keys = [UInt64](repeating: 0, count: size)
        var starts = [UInt32](repeating: 0, count: size)
        var counts = [UInt32](repeating: 0, count: size)
        var marks: [UInt32] = []
        marks.reserveCapacity(byKey.values.reduce(0) { $0 + $1.count })
        let shift = UInt64(64 - size.trailingZeroBitCount)
        for (key, list) in byKey {
            var i = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) >> shift)
            while keys[i] != 0 { i = (i + 1) & (size - 1) }
            keys[i] = key
            starts[i] = UInt32(marks.count)
            counts[i] = UInt32(list.count)
            marks += list
        }
        self.keys = keys
        self.starts = starts
        self.counts = counts
        self.marks = marks
        self.shift = shift
    }

    /// Bytes the index holds.
    var bytes: Int { keys.count * 16 + marks.count * 4 + levels.count * 8 }

    /// Marks a polygon fence's cells; returns its level. Edge cells: every cell within `margin`
    /// of an edge, found row by row along each edge. Inside cells: the rest whose centre is
    /// inside by the even-odd rule over all rings (a valid multipolygon's rings never cross).
    private static func markPolygon(_ polygons: [[[GeoPoint]]], _ mark: (UInt64, Bool) -> Void) -> Int {
        var minX = Double.infinity, maxX = -Double.infinity, minY = Double.infinity, maxY = -Double.infinity
        for rings in polygons { for p in rings[0] {
            minX = min(minX, p.longitude); maxX = max(maxX, p.longitude)
            minY = min(minY, p.latitude); maxY = max(maxY, p.latitude)
        } }
        let k = level(width: maxX - minX, height: maxY - minY)
        let scale = Double(sign: .plus, exponent: k, significand: 1)
        let size = 1 / scale
        let x0 = cellIndex(minX - margin, k), x1 = cellIndex(maxX + margin, k)
        let y0 = cellIndex(minY - margin, k), y1 = cellIndex(maxY + margin, k)
        let columns = Int(x1 - x0 + 1), rows = Int(y1 - y0 + 1)
        var edge = [Bool](repeating: false, count: columns * rows)
        // slack for the rounding of the interpolation below, far under the margin
        let pad = 2 * margin
        for rings in polygons { for ring in rings {
            for i in 0..<(ring.count - 1) {
                let a = ring[i], b = ring[i + 1]
                let lowY = min(a.latitude, b.latitude), highY = max(a.latitude, b.latitude)
                for row in cellIndex(lowY - pad, k)...cellIndex(highY + pad, k) {
                    let bandLow = max(lowY, Double(row) * size - pad), bandHigh = min(highY, Double(row + 1) * size + pad)
                    var xa: Double, xb: Double
                    if a.latitude == b.latitude {
                        xa = min(a.longitude, b.longitude); xb = max(a.longitude, b.longitude)
                    } else {
                        let t0 = (bandLow - a.latitude) / (b.latitude - a.latitude)
                        let t1 = (bandHigh - a.latitude) / (b.latitude - a.latitude)
                        let u = a.longitude + (b.longitude - a.longitude) * min(1, max(0, t0))
                        let v = a.longitude + (b.longitude - a.longitude) * min(1, max(0, t1))
                        xa = min(u, v); xb = max(u, v)
                    }
                    let r = Int(row - y0)
                    let first = max(x0, cellIndex(xa - pad, k)), last = min(x1, cellIndex(xb + pad, k))
                    guard r >= 0 && r < rows && first <= last else { continue }
                    for column in first...last {
                        edge[r * columns + Int(column - x0)] = true
                    }
                }
            }
        } }
        for r in 0..<rows {
            let y = Double(y0 + Int64(r)) * size + size / 2
            for c in 0..<columns {
                let isEdge = edge[r * columns + c]
                if !isEdge {
                    let x = Double(x0 + Int64(c)) * size + size / 2
                    guard GeofenceGeometry.evenOdd(polygons, x: x, y: y) else { continue }
                }
                mark(key(level: k, x: x0 + Int64(c), y: y0 + Int64(r)), !isEdge)
            }
        }
        return k
    }

    /// Marks a circle fence's cells; returns its level. A cell is inside when its farthest point
    /// is surely within the radius, outside when its nearest surely beyond, else an edge cell;
    /// where ``LocalDistance`` does not hold (beyond ±84° or 15 km) every cell is an edge cell.
    /// Columns past ±180° wrap, and the column at exactly 180° is marked with the one at −180°.
    private static func markCircle(center: GeoPoint, radius: Double, _ mark: (UInt64, Bool) -> Void) -> Int {
        // the box, generously: a degree of latitude is at least 110,574 m, of longitude at least
        // 111,320 m · cos(latitude) at the box's edge nearest a pole
        let dLat = radius / 110_574 * 1.01 + 1e-9
        let south = center.latitude - dLat, north = center.latitude + dLat
        let polar = max(abs(south), abs(north))
        var dLng = 360.0
        if polar < 89.9 {
            let c = cos(polar * .pi / 180)
            dLng = min(360, radius / (111_320 * c) * 1.01 + 1e-9)
        }
        var west = dLng >= 180 ? -180 : center.longitude - dLng
        var east = dLng >= 180 ? 180 : center.longitude + dLng
        let k = level(width: east - west, height: north - south)
        // at k < −3 a turn is not a whole number of columns: take every longitude, unwrapped
        if k < -3 {
            west = -180
            east = 180
        }
        let scale = Double(sign: .plus, exponent: k, significand: 1)
        let size = 1 / scale
        let exact = radius <= 15_000 && polar <= 84
        let fullTurn = cellIndex(360, k)  // 360 · 2^k columns (an integer for k ≥ −3)
        let x0 = cellIndex(west, k), x1 = cellIndex(east, k)
        let y0 = cellIndex(max(-90, south), k), y1 = cellIndex(min(90, north), k)
        let local = LocalDistance.Point(latitude: center.latitude, longitude: center.longitude)
        var marked = Set<UInt64>()
        for y in y0...y1 {
            for x in x0...x1 {
                var inside = false
                if exact {
                    let lat0 = Double(y) * size, lng0 = Double(x) * size
                    let midLat = lat0 + size / 2, midLng = lng0 + size / 2
                    let d = LocalDistance.metres(from: local, lat2: midLat, lng2: midLng)
                    var half = 0.0
                    for (la, lo) in [(lat0, lng0), (lat0, lng0 + size), (lat0 + size, lng0), (lat0 + size, lng0 + size)] {
                        half = max(half, LocalDistance.metres(lat1: midLat, lng1: midLng, lat2: la, lng2: lo))
                    }
                    half = half * 1.02 + LocalDistance.errorBound(distance: half, absTan: local.absTanLatitude) + 1e-6
                    let bound = LocalDistance.errorBound(distance: d, absTan: local.absTanLatitude)
                    if d - bound - half > radius { continue }          // wholly outside
                    inside = d + bound + half < radius
                }
                // wrap the column into −180…180; the columns starting at −180° and at 180° hold
                // the same places (a point at 180° finds the second), so each is marked with both
                var wx = x
                let half = fullTurn / 2
                if k >= -3 {
                    while wx > half { wx -= fullTurn }
                    while wx < -half { wx += fullTurn }
                }
                for column in k >= -3 && (wx == half || wx == -half) ? [-half, half] : [wx] {
                    let key = key(level: k, x: column, y: y)
                    if marked.insert(key).inserted { mark(key, inside) }
                }
            }
        }
        return k
    }
}

/// The exact-enough planar tests shared by the grid's marking and the locator.
enum GeofenceGeometry {
    /// Whether (x, y) is inside by the even-odd rule over every ring (longitude x, latitude y);
    /// rings are closed. A point on an edge can go either way: callers keep points within the
    /// margin of an edge away from it.
    @inline(__always)
    static func evenOdd(_ polygons: [[[GeoPoint]]], x: Double, y: Double) -> Bool {
        var inside = false
        for rings in polygons { for ring in rings {
            for i in 0..<(ring.count - 1) {
                let a = ring[i], b = ring[i + 1]
                if (a.latitude > y) != (b.latitude > y) {
                    let xi = a.longitude + (y - a.latitude) * (b.longitude - a.longitude) / (b.latitude - a.latitude)
                    if x < xi { inside.toggle() }
                }
            }
        } }
        return inside
    }

    /// Whether (x, y) lies within `margin` degrees of any edge (in either coordinate's units).
    @inline(__always)
    static func nearEdge(_ polygons: [[[GeoPoint]]], x: Double, y: Double, margin: Double) -> Bool {
        let m2 = margin * margin
        for rings in polygons { for ring in rings {
            for i in 0..<(ring.count - 1) {
                let a = ring[i], b = ring[i + 1]
                // quick reject on the edge's box
                if x < min(a.longitude, b.longitude) - margin || x > max(a.longitude, b.longitude) + margin
                    || y < min(a.latitude, b.latitude) - margin || y > max(a.latitude, b.latitude) + margin { continue }
                let dx = b.longitude - a.longitude, dy = b.latitude - a.latitude
                let len2 = dx * dx + dy * dy
                var t = len2 > 0 ? ((x - a.longitude) * dx + (y - a.latitude) * dy) / len2 : 0
                t = min(1, max(0, t))
                let ex = a.longitude + t * dx - x, ey = a.latitude + t * dy - y
                if ex * ex + ey * ey <= m2 { return true }
            }
        } }
        return false
    }
}

extension Double {
    /// ⌈log₂ self⌉ for a positive finite value.
    var log2Ceiling: Double {
        let e = exponent  // self = m · 2^e, 1 ≤ m < 2
        return significand == 1 ? Double(e) : Double(e + 1)
    }
}
