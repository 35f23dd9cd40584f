#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GeoBridge
import GeoMath

/// A checked set of geofences and its index (contract rule 11): load it once, share it between
/// threads, and ask each thread's ``GeofenceLocator`` which fences hold a point.
///
/// ```swift
/// let fences = try GeofenceSet(contentsOf: "stores.geojson")
/// let locator = try fences.makeLocator()          // one per thread
/// let ids = locator.ids(containing: GeoPoint(latitude: 43.65, longitude: -79.38))
/// ```
///
/// - Loading reads a GeoJSON FeatureCollection or one Feature a line, checks every feature (ids,
///   geometry types, radii, closed rings, coordinate ranges, GEOS validity) and refuses the
///   whole file at the first problem with a ``GeofenceFileError`` that names the feature.
///   O(n) in the file's size plus GEOS's validity check, O(v log v) per polygon of v vertices.
/// - Memory: the fences' coordinates (16 bytes a vertex) and the index, about
///   ``indexBytes`` (a few hundred bytes a fence).
public final class GeofenceSet: Sendable {
    /// The fences in ascending order of id (UTF-8 byte order): a fence's number is its place here.
    public let fences: [Geofence]
    /// The fences' ids and the lists of them that fixes have been in, under the handles that
    /// ``GeofenceLocator/list(containing:)`` answers and an ``Enrichment`` keeps.
    public let lists: GeofenceListTable
    let grid: GeofenceGrid
    let shapes: FenceShapes

    /// Reads and checks a fence file.
    /// - Throws: ``GeofenceFileError`` naming the feature and the problem, or the file when it
    ///   cannot be read or is not JSON.
    public convenience init(contentsOf path: String) throws(GeofenceFileError) {
        let bytes: [UInt8]
        do { bytes = try Self.read(path) } catch { throw GeofenceFileError(path: path, feature: nil, reason: error.message) }
        try self.init(json: bytes, path: path)
    }

    /// Checks the fences of a file's bytes; `path` names the file in errors.
    public convenience init(json bytes: [UInt8], path: String) throws(GeofenceFileError) {
        let context: GEOSContext
        do { context = try GEOSContext() } catch {
            throw GeofenceFileError(path: path, feature: nil, reason: "GEOS could not start: \(error)")
        }
        self.init(fences: try GeofenceFile.parse(bytes, path: path, context: context))
    }

    /// A set of fences already checked (ids unique, rings closed and valid, radii positive).
    public init(fences: [Geofence]) {
        self.fences = fences.sorted { $0.id.utf8Precedes($1.id) }
        lists = GeofenceListTable(ids: self.fences.map(\.id))
        shapes = FenceShapes(self.fences)
        grid = GeofenceGrid(fences: self.fences, shapes: shapes)
    }

    /// Bytes of the index (not counting the fences' coordinates).
    public var indexBytes: Int { grid.bytes + shapes.bytes }

    /// A locator for the calling thread (it owns a GEOS context).
    public func makeLocator() throws(GEOSError) -> GeofenceLocator { try GeofenceLocator(set: self) }

    private struct ReadError: Error { let message: String }

    private static func read(_ path: String) throws(ReadError) -> [UInt8] {
        guard let file = fopen(path, "rb") else {
            throw ReadError(message: "cannot be read: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = chunk.withUnsafeMutableBytes { fread($0.baseAddress, 1, $0.count, file) }
            bytes += chunk[0..<n]
            if n < chunk.count {
                if ferror(file) != 0 { throw ReadError(message: "cannot be read: \(String(cString: strerror(errno)))") }
                return bytes
            }
        }
    }
}

/// Answers "which fences hold this point" for one thread.
///
/// Most points are answered by the set's grid alone; a point in a cell an edge passes through
/// is tested exactly: a circle by ``LocalDistance`` where its error bound decides, else by PROJ's
/// geodesic; a polygon by the even-odd rule where the point is more than 1e-9° from every edge,
/// else by GEOS's prepared `intersects` (rule 11's *covers* for a point), made once per fence.
///
/// Not `Sendable`: it owns a GEOS context. Make one per thread; they share the set.
public final class GeofenceLocator {
    public let set: GeofenceSet
    private let context: GEOSContext
    private var prepared: [Int: PreparedGeometry] = [:]
    private var found: [Int] = []
    /// The lists this thread has turned into handles (``GeofenceListCache``).
    private var lists = GeofenceListCache()

    init(set: GeofenceSet) throws(GEOSError) {
        self.set = set
        context = try GEOSContext()
    }

    /// The numbers (places in ``GeofenceSet/fences``) of the fences holding `point`, ascending,
    /// which is ascending order of id.
    ///
    /// - Complexity: one table probe per grid level in use, plus an exact test per fence whose
    ///   edge passes the point's cell.
    public func fences(containing point: GeoPoint) -> [Int] {
        found.removeAll(keepingCapacity: true)
        guard point.latitude.isFinite, point.longitude.isFinite,
              (-90...90).contains(point.latitude), (-180...180).contains(point.longitude) else { return [] }
        let grid = set.grid  // a class: one reference, not four arrays
        for k in grid.levels {
            grid.forEachMark(level: k, latitude: point.latitude, longitude: point.longitude) { mark in
                let n = Int(mark >> 1)
                if mark & 1 == 1 || holds(n, point) { found.append(n) }
            }
        }
        if found.count > 1 { found.sort() }
        return found
    }

    /// The fences holding `point` as a handle of the set's ``GeofenceSet/lists`` (what an
    /// ``Enrichment`` keeps).
    ///
    /// - Complexity: ``fences(containing:)``'s, and for a point in two or more fences a lookup
    ///   of the list in the table.
    public func list(containing point: GeoPoint) -> GeofenceList {
        set.lists.list(of: fences(containing: point), cache: &lists)
    }

    /// The ids of the fences holding `point`, in ascending order.
    public func ids(containing point: GeoPoint) -> [String] {
        fences(containing: point).map { set.fences[$0].id }
    }

    /// The exact test of fence `n`.
    @inline(__always)
    private func holds(_ n: Int, _ point: GeoPoint) -> Bool {
        let shapes = set.shapes
        let e = shapes.entries[n]
        if e.isCircle {
            if e.absTan.isFinite && abs(point.latitude) <= 85 {
                let d = LocalDistance.metres(lat1: e.a, lng1: e.b, lat2: point.latitude, lng2: point.longitude)
                if d <= 20_000 {
                    let bound = LocalDistance.errorBound(distance: d, absTan: e.absTan)
                    if d + bound < e.radius { return true }
                    if d - bound > e.radius { return false }
                }
            }
            return Geodesic.wgs84.distance(from: GeoPoint(latitude: e.a, longitude: e.b), to: point) <= e.radius
        }
        switch shapes.evenOdd(e, x: point.longitude, y: point.latitude, margin: GeofenceGrid.margin) {
        case .inside: return true
        case .outside: return false
        case .nearEdge:
            guard case .polygons(let polygons) = set.fences[n].shape else { return false }
            // validated when loaded, so GEOS answers; were it to fail, the point is not counted in
            return (try? preparedGeometry(n, polygons).intersects(point)) ?? false
        }
    }

    private func preparedGeometry(_ n: Int, _ polygons: [[[GeoPoint]]]) throws(GEOSError) -> PreparedGeometry {
        if let p = prepared[n] { return p }
        let p = try Geometry(polygons: polygons, context: context).prepared()
        prepared[n] = p
        return p
    }
}

/// The fences' shapes in flat arrays for the locator's exact tests, so a test copies no array
/// and counts no reference: a circle's centre, radius and |tan latitude|, a polygon's rings as
/// ranges of one array of longitude, latitude pairs.
final class FenceShapes: Sendable {
    struct Entry {
        /// A circle's centre latitude and longitude; a polygon's first and last ring (as
        /// indexes into ``rings``, in `ringStart..<ringEnd`).
        var a = 0.0, b = 0.0
        var radius = 0.0
        /// |tan| of a circle's centre latitude, or infinity beyond ±85° (no local distance there).
        var absTan = Double.infinity
        var ringStart: Int32 = 0, ringEnd: Int32 = 0
        var isCircle = false
    }

    enum Answer { case inside, outside, nearEdge }

    let entries: [Entry]
    /// Each ring's points as `xy[start..<end]` in pairs (closed rings).
    let rings: [(start: Int32, end: Int32)]
    let xy: [Double]

    init(_ fences: [Geofence]) {
        var entries: [Entry] = []
        var rings: [(start: Int32, end: Int32)] = []
        var xy: [Double] = []
        entries.reserveCapacity(fences.count)
        for fence in fences {
            var e = Entry()
            switch fence.shape {
            case .circle(let center, let radius):
                e.isCircle = true
                e.a = center.latitude
                e.b = center.longitude
                e.radius = radius
                if abs(center.latitude) <= 85 { e.absTan = abs(tan(center.latitude * .pi / 180)) }
            case .polygons(let polygons):
                e.ringStart = Int32(rings.count)
                for ring in polygons.joined() {
                    let start = Int32(xy.count)
                    for p in ring {
                        xy.append(p.longitude)
                        xy.append(p.latitude)
                    }
                    rings.append((start, Int32(xy.count)))
                }
                e.ringEnd = Int32(rings.count)
            }
            entries.append(e)
        }
        self.entries = entries
        self.rings = rings
        self.xy = xy
    }

    var bytes: Int { entries.count * MemoryLayout<Entry>.stride + rings.count * 8 + xy.count * 8 }

    /// The even-odd rule over every ring of a polygon entry, or ``Answer/nearEdge`` when (x, y)
    /// lies within `margin` of an edge, where rounding could decide it either way.
    @inline(__always)
    func evenOdd(_ e: Entry, x: Double, y: Double, margin: Double) -> Answer {
        var inside = false
        let m2 = margin * margin
        return xy.withUnsafeBufferPointer { p in
            for r in Int(e.ringStart)..<Int(e.ringEnd) {
                let (start, end) = rings[r]
                var i = Int(start)
                while i + 2 < Int(end) {
                    let ax = p[i], ay = p[i + 1], bx = p[i + 2], by = p[i + 3]
                    i += 2
                    if (ay > y) != (by > y) {
                        let xi = ax + (y - ay) * (bx - ax) / (by - ay)
                        if x < xi { inside.toggle() }
                    }
                    // near the edge? (a cheap box test first)
                    if x < min(ax, bx) - margin || x > max(ax, bx) + margin
                        || y < min(ay, by) - margin || y > max(ay, by) + margin { continue }
                    let dx = bx - ax, dy = by - ay
                    let len2 = dx * dx + dy * dy
                    let t = len2 > 0 ? min(1, max(0, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0
                    let ex = ax + t * dx - x, ey = ay + t * dy - y
                    if ex * ex + ey * ey <= m2 { return .nearEdge }
                }
            }
            return inside ? .inside : .outside
        }
    }
}
