
/// The planar geometry of H3's region functions, in radians: latitude/longitude boxes and loops
/// with straight edges in (latitude, longitude), as `bbox.c`, `polygon.c` and `polygonAlgos.h`
/// of H3 4.5.0 define them. Every comparison and every operation's order follows those files,
/// because `polygonToCells` is compared with H3's answer cell for cell: a point on an edge goes
/// the way H3's ray cast sends it.

/// A point in radians (H3's `LatLng`), the unit every region function works in.
struct RadianPoint: Equatable {
    var lat: Double
    var lng: Double

    /// `point` in radians, by `degsToRads` as h3-py converts its input.
    @inline(__always) init(_ point: LatLng) {
        lat = Angle.radians(fromDegrees: point.latitude)
        lng = Angle.radians(fromDegrees: point.longitude)
    }

    @inline(__always) init(lat: Double, lng: Double) {
        self.lat = lat
        self.lng = lng
    }

    @inline(__always) init(_ v: Vec3) {
        lat = v.latitudeRadians
        lng = v.longitudeRadians
    }
}

/// Which way a longitude is moved by 2π to compare across the antimeridian (H3's
/// `LongitudeNormalization`).
enum LongitudeNormalization {
    case none, east, west

    @inline(__always) func apply(_ lng: Double) -> Double {
        switch self {
        case .none: return lng
        case .east: return lng < 0 ? lng + H3Constants.m_2pi : lng
        case .west: return lng > 0 ? lng - H3Constants.m_2pi : lng
        }
    }
}

/// A latitude/longitude box in radians (H3's `BBox`). `east < west` means the box crosses the
/// antimeridian.
struct BoundingBox: Equatable {
    var north: Double
    var south: Double
    var east: Double
    var west: Double

    /// The whole valid range (`VALID_RANGE_BBOX`).
    static let validRange = BoundingBox(north: H3Constants.m_pi_2, south: -H3Constants.m_pi_2,
                                        east: H3Constants.m_pi, west: -H3Constants.m_pi)

    @inline(__always) var isTransmeridian: Bool { east < west }
    var width: Double { isTransmeridian ? east - west + H3Constants.m_2pi : east - west }
    var height: Double { north - south }

    func contains(_ p: RadianPoint) -> Bool {
        p.lat >= south && p.lat <= north
            && (isTransmeridian ? (p.lng >= west || p.lng <= east) : (p.lng >= west && p.lng <= east))
    }

    /// How `a` and `b` move their longitudes to be compared (`bboxNormalization`).
    static func normalizations(_ a: BoundingBox, _ b: BoundingBox) -> (LongitudeNormalization, LongitudeNormalization) {
        let aTrans = a.isTransmeridian, bTrans = b.isTransmeridian
        let aToBTrendsEast = a.west - b.east < b.west - a.east
        let na: LongitudeNormalization = !aTrans ? .none : bTrans ? .east : aToBTrendsEast ? .east : .west
        let nb: LongitudeNormalization = !bTrans ? .none : aTrans ? .east : aToBTrendsEast ? .west : .east
        return (na, nb)
    }

    func overlaps(_ b: BoundingBox) -> Bool {
        if north < b.south || south > b.north { return false }
        let (na, nb) = Self.normalizations(self, b)
        return !(na.apply(east) < nb.apply(b.west) || na.apply(west) > nb.apply(b.east))
    }

    func contains(_ b: BoundingBox) -> Bool {
        if north < b.north || south > b.south { return false }
        let (na, nb) = Self.normalizations(self, b)
        return na.apply(west) <= nb.apply(b.west) && na.apply(east) >= nb.apply(b.east)
    }

    /// The box as a counter-clockwise loop of 4 corners (`bboxToCellBoundary`).
    var corners: [RadianPoint] {
        [RadianPoint(lat: north, lng: east), RadianPoint(lat: north, lng: west),
         RadianPoint(lat: south, lng: west), RadianPoint(lat: south, lng: east)]
    }

    /// Grown by `scale` about its centre, clamped to the poles and wrapped at the antimeridian
    /// (`scaleBBox`).
    mutating func scale(by scale: Double) {
        let w = width, h = height
        let widthBuffer = (w * scale - w) * 0.5
        let heightBuffer = (h * scale - h) * 0.5
        north += heightBuffer
        if north > H3Constants.m_pi_2 { north = H3Constants.m_pi_2 }
        south -= heightBuffer
        if south < -H3Constants.m_pi_2 { south = -H3Constants.m_pi_2 }
        east += widthBuffer
        if east > H3Constants.m_pi { east -= H3Constants.m_2pi }
        if east < -H3Constants.m_pi { east += H3Constants.m_2pi }
        west -= widthBuffer
        if west > H3Constants.m_pi { west -= H3Constants.m_2pi }
        if west < -H3Constants.m_pi { west += H3Constants.m_2pi }
    }
}

extension BoundingBox {
    /// The box of a loop (`bboxFromGeoLoop`): a loop with an edge longer than π in longitude
    /// crosses the antimeridian, and its box runs from the smallest positive longitude east to
    /// the largest negative one. An empty loop's box is all zeros.
    init(loop: [RadianPoint]) {
        guard !loop.isEmpty else {
            self.init(north: 0, south: 0, east: 0, west: 0)
            return
        }
        var s = Double.greatestFiniteMagnitude, w = Double.greatestFiniteMagnitude
        var n = -Double.greatestFiniteMagnitude, e = -Double.greatestFiniteMagnitude
        var minPositiveLng = Double.greatestFiniteMagnitude, maxNegativeLng = -Double.greatestFiniteMagnitude
        var transmeridian = false
        for i in loop.indices {
            let p = loop[i], next = loop[i + 1 == loop.count ? 0 : i + 1]
            if p.lat < s { s = p.lat }
            if p.lng < w { w = p.lng }
            if p.lat > n { n = p.lat }
            if p.lng > e { e = p.lng }
            if p.lng > 0 && p.lng < minPositiveLng { minPositiveLng = p.lng }
            if p.lng < 0 && p.lng > maxNegativeLng { maxNegativeLng = p.lng }
            if abs(p.lng - next.lng) > H3Constants.m_pi { transmeridian = true }
        }
        if transmeridian {
            e = maxNegativeLng
            w = minPositiveLng
        }
        self.init(north: n, south: s, east: e, west: w)
    }
}

/// A polygon in radians with the box of each loop (H3's `GeoPolygon` with the `bboxes` its
/// region functions compute first).
struct RadianPolygon {
    /// Loop 0 is the outer loop, the rest holes.
    let loops: [[RadianPoint]]
    let boxes: [BoundingBox]

    init(_ polygon: GeoPolygon) {
        loops = [polygon.outer.map(RadianPoint.init)] + polygon.holes.map { $0.map(RadianPoint.init) }
        boxes = loops.map(BoundingBox.init(loop:))
    }

    var outer: [RadianPoint] { loops[0] }
    var box: BoundingBox { boxes[0] }

    /// Inside the outer loop and in no hole (`pointInsidePolygon`).
    func contains(_ p: RadianPoint) -> Bool {
        guard RadianPolygon.loopContains(loops[0], box: boxes[0], p) else { return false }
        for i in 1..<loops.count where RadianPolygon.loopContains(loops[i], box: boxes[i], p) { return false }
        return true
    }

    /// Whether a cell's boundary (or a box's corners), with its box, lies inside the polygon:
    /// a first vertex inside, no edge crossing the outer loop, and no hole inside it or crossing
    /// it (`cellBoundaryInsidePolygon`).
    func containsBoundary(_ boundary: [RadianPoint], box boundaryBox: BoundingBox) -> Bool {
        guard contains(boundary[0]) else { return false }
        if RadianPolygon.loop(loops[0], box: boxes[0], crosses: boundary, box: boundaryBox) { return false }
        for i in 1..<loops.count where !loops[i].isEmpty {
            if RadianPolygon.loopContains(boundary, box: boundaryBox, loops[i][0])
                || RadianPolygon.loop(loops[i], box: boxes[i], crosses: boundary, box: boundaryBox) {
                return false
            }
        }
        return true
    }

    /// Whether any edge of the boundary crosses any loop (`cellBoundaryCrossesPolygon`).
    func crosses(_ boundary: [RadianPoint], box boundaryBox: BoundingBox) -> Bool {
        for i in loops.indices where RadianPolygon.loop(loops[i], box: boxes[i], crosses: boundary, box: boundaryBox) {
            return true
        }
        return false
    }

    /// The ray cast of `pointInsideGeoLoop`. A point level with a vertex is nudged north by one
    /// `DBL_EPSILON`, and one level in longitude with a vertex is nudged west, for the rest of
    /// the loop (the nudges persist, as in H3), so a point on an edge has one answer.
    static func loopContains(_ loop: [RadianPoint], box: BoundingBox, _ point: RadianPoint) -> Bool {
        guard box.contains(point) else { return false }
        let trans = box.isTransmeridian
        @inline(__always) func normal(_ lng: Double) -> Double { trans && lng < 0 ? lng + H3Constants.m_2pi : lng }
        var contains = false
        var lat = point.lat
        var lng = normal(point.lng)
        let n = loop.count
        for i in 0..<n {
            var a = loop[i], b = loop[i + 1 == n ? 0 : i + 1]
            if a.lat > b.lat { swap(&a, &b) }
            if lat == a.lat || lat == b.lat { lat += Double.ulpOfOne }
            if lat < a.lat || lat > b.lat { continue }
            let aLng = normal(a.lng), bLng = normal(b.lng)
            if aLng == lng || bLng == lng { lng -= Double.ulpOfOne }
            let ratio = (lat - a.lat) / (b.lat - a.lat)
            let testLng = normal(aLng + (bLng - aLng) * ratio)
            if testLng > lng { contains.toggle() }
        }
        return contains
    }

    /// Whether an edge of `loop` crosses an edge of `boundary` (`cellBoundaryCrossesGeoLoop`),
    /// both moved across the antimeridian as their boxes say.
    static func loop(_ loop: [RadianPoint], box loopBox: BoundingBox,
                     crosses boundary: [RadianPoint], box boundaryBox: BoundingBox) -> Bool {
        guard loopBox.overlaps(boundaryBox) else { return false }
        let (loopNormal, boundaryNormal) = BoundingBox.normalizations(loopBox, boundaryBox)
        let edge = boundary.map { RadianPoint(lat: $0.lat, lng: boundaryNormal.apply($0.lng)) }
        let north = boundaryBox.north, south = boundaryBox.south
        let east = boundaryNormal.apply(boundaryBox.east), west = boundaryNormal.apply(boundaryBox.west)
        let n = loop.count, m = edge.count
        for i in 0..<n {
            var p1 = loop[i], p2 = loop[(i + 1) % n]
            p1.lng = loopNormal.apply(p1.lng)
            p2.lng = loopNormal.apply(p2.lng)
            // a segment wholly on one side of the box cannot cross the boundary
            if (p1.lat >= north && p2.lat >= north) || (p1.lat <= south && p2.lat <= south)
                || (p1.lng <= west && p2.lng <= west) || (p1.lng >= east && p2.lng >= east) {
                continue
            }
            for j in 0..<m where segmentsCross(p1, p2, edge[j], edge[(j + 1) % m]) { return true }
        }
        return false
    }

    /// Whether segments a1–a2 and b1–b2 meet, ends included (`lineCrossesLine`); parallel
    /// segments never do.
    @inline(__always)
    static func segmentsCross(_ a1: RadianPoint, _ a2: RadianPoint, _ b1: RadianPoint, _ b2: RadianPoint) -> Bool {
        let denom = (b2.lng - b1.lng) * (a2.lat - a1.lat) - (b2.lat - b1.lat) * (a2.lng - a1.lng)
        if denom == 0 { return false }
        var test = ((b2.lat - b1.lat) * (a1.lng - b1.lng) - (b2.lng - b1.lng) * (a1.lat - b1.lat)) / denom
        if test < 0 || test > 1 { return false }
        test = ((a2.lat - a1.lat) * (a1.lng - b1.lng) - (a2.lng - a1.lng) * (a1.lat - b1.lat)) / denom
        return test >= 0 && test <= 1
    }
}
