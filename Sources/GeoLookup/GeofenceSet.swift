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
    let grid: GeofenceGrid

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
        grid = GeofenceGrid(fences: self.fences)
    }

    /// Bytes of the index (not counting the fences' coordinates).
    public var indexBytes: Int { grid.bytes }

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
        let grid = set.grid
        for k in grid.levels {
            grid.forEachMark(level: k, latitude: point.latitude, longitude: point.longitude) { mark in
                let n = Int(mark >> 1)
                if mark & 1 == 1 || holds(n, point) { found.append(n) }
            }
        }
        if found.count > 1 { found.sort() }
        return found
    }

    /// The ids of the fences holding `point`, in ascending order.
    public func ids(containing point: GeoPoint) -> [String] {
        fences(containing: point).map { set.fences[$0].id }
    }

    /// The exact test of fence `n`.
    private func holds(_ n: Int, _ point: GeoPoint) -> Bool {
        switch set.fences[n].shape {
        case .circle(let center, let radius):
            if abs(center.latitude) <= 85 && abs(point.latitude) <= 85 {
                let d = LocalDistance.metres(lat1: center.latitude, lng1: center.longitude,
                                             lat2: point.latitude, lng2: point.longitude)
                if d <= 20_000 {
                    let bound = LocalDistance.errorBound(distance: d, latitudeRadians: center.latitude * .pi / 180)
                    if d + bound < radius { return true }
                    if d - bound > radius { return false }
                }
            }
            return Geodesic.wgs84.distance(from: center, to: point) <= radius
        case .polygons(let polygons):
            if !GeofenceGeometry.nearEdge(polygons, x: point.longitude, y: point.latitude, margin: GeofenceGrid.margin) {
                return GeofenceGeometry.evenOdd(polygons, x: point.longitude, y: point.latitude)
            }
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
