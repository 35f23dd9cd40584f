import GeoBridge

/// Proves, without GEOS, that a polygon of one ring is valid: what loading a fence file asks
/// of most fences (rule 11 refuses invalid polygons, with GEOS's `isValidDetail` reason), at a
/// fraction of GEOS's cost (building each geometry and noding it took 0.13 s more of the 1.24 s
/// of CPU that loading 100,000 fences took in one part).
///
/// A closed ring is a valid polygon when it is simple: its consecutive points differ, two
/// edges that follow each other meet only at their common point (they turn, never fold back),
/// and two that do not follow each other never meet. Each is decided here by the sign of an
/// orientation determinant, taken only when Shewchuk's error bound for it (`ccwerrboundA`,
/// "Adaptive Precision Floating-Point Arithmetic and Fast Robust Geometric Predicates", 1997)
/// proves the sign. Anything not proven (a touch, a near-collinear turn, more than
/// ``mostEdges`` edges, holes, several polygons) is left to GEOS, which decides and names the
/// problem; so a polygon this passes is one GEOS finds valid, and this never refuses one.
enum SimpleRing {
    /// Rings longer than this go to GEOS (its sweep is O(n log n); this test is O(n²)).
    static let mostEdges = 64

    /// Whether `polygons` is surely a valid polygon: one polygon of one simple ring.
    static func isSurelyValid(_ polygons: [[[GeoPoint]]]) -> Bool {
        guard polygons.count == 1, polygons[0].count == 1 else { return false }
        return isSurelySimple(polygons[0][0])
    }

    /// Whether the closed ring `ring` (first point repeated last) is surely simple.
    static func isSurelySimple(_ ring: [GeoPoint]) -> Bool {
        let n = ring.count - 1  // edges: ring[i] to ring[i + 1]
        guard n >= 3, n <= mostEdges, ring[0] == ring[n] else { return false }
        return ring.withUnsafeBufferPointer { p in
            for i in 0..<n where p[i] == p[i + 1] { return false }
            // edges that follow each other turn: the corner at ring[i + 1], and at ring[0]
            for i in 0..<n {
                let a = p[i == 0 ? n - 1 : i - 1], b = p[i], c = p[i + 1]
                if orientation(a, b, c) == 0 { return false }
            }
            // edges that do not follow each other are apart: only pairs whose spans of longitude
            // meet can touch, found by a sweep of the edges in order of their west end (every
            // pair in turn was 4,000 instructions a ring of 19 edges, a twentieth of reading
            // 20,000 fences)
            return withUnsafeTemporaryAllocation(of: (west: Double, east: Double, edge: Int).self, capacity: n) { spans in
                for i in 0..<n {
                    let a = p[i].longitude, b = p[i + 1].longitude
                    var k = i  // by insertion: 64 edges at most
                    while k > 0 && spans[k - 1].west > min(a, b) {
                        spans[k] = spans[k - 1]
                        k -= 1
                    }
                    spans[k] = (min(a, b), max(a, b), i)
                }
                for s in 0..<n {
                    var t = s + 1
                    while t < n && spans[t].west <= spans[s].east {
                        let i = min(spans[s].edge, spans[t].edge), j = max(spans[s].edge, spans[t].edge)
                        t += 1
                        if j - i < 2 || (i == 0 && j == n - 1) { continue }  // they follow each other
                        if !apart(p[i], p[i + 1], p[j], p[j + 1]) { return false }
                    }
                }
                return true
            }
        }
    }

    /// Whether edges a → b and c → d, whose spans of longitude meet, surely have no point in
    /// common.
    @inline(__always)
    private static func apart(_ a: GeoPoint, _ b: GeoPoint, _ c: GeoPoint, _ d: GeoPoint) -> Bool {
        if max(c.latitude, d.latitude) < min(a.latitude, b.latitude) || min(c.latitude, d.latitude) > max(a.latitude, b.latitude) {
            return true
        }
        let o1 = orientation(a, b, c), o2 = orientation(a, b, d)
        if o1 != 0 && o1 == o2 { return true }
        let o3 = orientation(c, d, a), o4 = orientation(c, d, b)
        return o3 != 0 && o3 == o4
    }

    /// The sign of the turn a → b → c in the plane of longitude (x) and latitude (y): 1 to the
    /// left, -1 to the right, 0 when the rounded determinant does not prove its sign.
    ///
    /// Shewchuk's bound holds when neither a product nor the bound underflows: a difference of
    /// coordinates under 1e-140 (which only coordinates that small have) is not decided here
    /// (products stay above 1e-280, the bound above 1e-296, both normal).
    @inline(__always)
    static func orientation(_ a: GeoPoint, _ b: GeoPoint, _ c: GeoPoint) -> Int {
        let acx = a.longitude - c.longitude, bcy = b.latitude - c.latitude
        let acy = a.latitude - c.latitude, bcx = b.longitude - c.longitude
        @inline(__always) func tiny(_ d: Double) -> Bool { d != 0 && abs(d) < 1e-140 }
        if tiny(acx) || tiny(bcy) || tiny(acy) || tiny(bcx) { return 0 }
        let left = acx * bcy
        let right = acy * bcx
        let det = left - right
        let sum: Double
        if left > 0 {
            if right <= 0 { return det > 0 ? 1 : (det < 0 ? -1 : 0) }
            sum = left + right
        } else if left < 0 {
            if right >= 0 { return det > 0 ? 1 : (det < 0 ? -1 : 0) }
            sum = -left - right
        } else {
            return det > 0 ? 1 : (det < 0 ? -1 : 0)
        }
        let bound = 3.3306690738754716e-16 * sum  // (3 + 16ε)ε, ε = 2^-53
        if det >= bound && det > 0 { return 1 }
        if -det >= bound && det < 0 { return -1 }
        return 0
    }
}
