#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import CMemoryHints
import GeoBridge
import ThreadSharing
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
///   O(n) in the file's size plus each polygon's validity check: O(v²) for a ring of up to 64
///   vertices that ``SimpleRing`` proves simple, else GEOS's, O(v log v). A FeatureCollection is
///   read, checked and indexed in parts on several threads (``ForkJoin``).
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
        let checked = try Self.withContents(of: path) { (bytes) throws(GeofenceFileError) in try Self.check(bytes, path: path) }
        self.init(fences: checked.fences, order: checked.order)
    }

    /// Checks the fences of a file's bytes; `path` names the file in errors.
    public convenience init(json bytes: [UInt8], path: String) throws(GeofenceFileError) {
        let checked = try bytes.withUnsafeBufferPointer { (bytes) throws(GeofenceFileError) in try Self.check(bytes, path: path) }
        self.init(fences: checked.fences, order: checked.order)
    }

    private static func check(_ bytes: UnsafeBufferPointer<UInt8>, path: String) throws(GeofenceFileError) -> (fences: [Geofence], order: [Int]) {
        let context: GEOSContext
        do { context = try GEOSContext() } catch {
            throw GeofenceFileError(path: path, feature: nil, reason: "GEOS could not start: \(error)")
        }
        return try GeofenceFile.parse(bytes, path: path, context: context)
    }

    /// A set of fences already checked (ids unique, rings closed and valid, radii positive).
    public convenience init(fences: [Geofence]) {
        self.init(fences: fences, order: Geofence.idOrder(fences))
    }

    /// `fences` numbered in `order`, their places in ascending order of id
    /// (``Geofence/idOrder(_:)``).
    init(fences: [Geofence], order: [Int]) {
        let numbered = order.map { fences[$0] }
        self.fences = numbered
        // the list table beside the shapes and the grid: it needs only the ids, and made after
        // them it kept one core waiting (about 10 ms of loading 20,000 fences, a perf timeline)
        let built = ForkJoin.map(parts: numbered.count >= 1_000 ? 2 : 1) { part -> Built in
            if part == 1 { return .lists(GeofenceListTable(ids: numbered.map(\.id))) }
            let (shapes, boxes) = FenceShapes.build(numbered)
            return .index(shapes, GeofenceGrid(fences: numbered, shapes: shapes, boxes: boxes))
        }
        guard case .index(let shapes, let grid) = built[0] else { preconditionFailure("part 0 builds the index") }
        self.shapes = shapes
        self.grid = grid
        if built.count == 2, case .lists(let lists) = built[1] {
            self.lists = lists
        } else {
            lists = GeofenceListTable(ids: numbered.map(\.id))
        }
    }

    /// What each part of ``init(fences:order:)`` builds.
    private enum Built: Sendable {
        case index(FenceShapes, GeofenceGrid)
        case lists(GeofenceListTable)
    }

    /// Bytes of the index (not counting the fences' coordinates).
    public var indexBytes: Int { grid.bytes + shapes.bytes }

    /// A locator for the calling thread (it owns a GEOS context).
    public func makeLocator() throws(GEOSError) -> GeofenceLocator { try GeofenceLocator(set: self) }

    private struct ReadError: Error { let message: String }

    /// `body` with the bytes of the file at `path`: a regular file's mapped, anything else (a
    /// pipe) read. Mapped, the parts' readers read the page cache's pages where they are; read,
    /// they were copied into fresh memory, a page fault for each page (the 9 MB file of 20,000
    /// fences: `lookup --geofences` on no input took 4 % less time mapped, paired medians).
    ///
    /// A mapped file that another process shortens while it is read ends the process
    /// (`SIGBUS`), as the data files' mappings would (``DataFile``).
    private static func withContents<R>(of path: String, _ body: (UnsafeBufferPointer<UInt8>) throws(GeofenceFileError) -> R) throws(GeofenceFileError) -> R {
        func failure(_ message: String) -> GeofenceFileError { GeofenceFileError(path: path, feature: nil, reason: message) }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure("cannot be read: \(String(cString: strerror(errno)))") }
        var status = stat()
        if fstat(fd, &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && status.st_size > 0,
           let p = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, fd, 0), p != MAP_FAILED {
            close(fd)  // the mapping keeps the file
            defer { munmap(p, Int(status.st_size)) }
            return try body(UnsafeBufferPointer(start: p.assumingMemoryBound(to: UInt8.self), count: Int(status.st_size)))
        }
        guard let file = fdopen(fd, "rb") else {
            let message = "cannot be read: \(String(cString: strerror(errno)))"
            close(fd)
            throw failure(message)
        }
        let bytes: [UInt8]
        do { bytes = try read(file) } catch {
            fclose(file)
            throw failure(error.message)
        }
        fclose(file)
        return try bytes.withUnsafeBufferPointer(body)
    }

    private static func read(_ file: UnsafeMutablePointer<FILE>) throws(ReadError) -> [UInt8] {
        // a regular file is read at once into an array of its size (reading in chunks and
        // appending copied 46 MB twice over for 100,000 fences); what is left, or a pipe, in chunks
        var bytes: [UInt8] = []
        var status = stat()
        if fstat(fileno(file), &status) == 0 && (status.st_mode & S_IFMT) == S_IFREG && status.st_size > 0 {
            bytes = [UInt8](unsafeUninitializedCapacity: Int(status.st_size)) { buffer, count in
                count = fread(buffer.baseAddress, 1, buffer.count, file)
            }
        }
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
/// is tested exactly: a circle by ``LocalDistance`` where its error bound decides, else by the exact
/// geodesic (`Geodesic`); a polygon by the even-odd rule where the point is more than 1e-9° from every edge,
/// else by GEOS's prepared `intersects` (rule 11's *covers* for a point), made once per fence.
///
/// Not `Sendable`: it owns a GEOS context. Make one per thread; they share the set.
public final class GeofenceLocator {
    public let set: GeofenceSet
    private let context: GEOSContext
    private var prepared: [Int: PreparedGeometry] = [:]

    /// What a query changes, in memory the locator owns: the fences found, and the lists this
    /// thread has turned into handles (``GeofenceListCache``). Reached through a pointer, not as
    /// a class's stored `var`s: passing those `inout` cost a dynamic exclusivity check
    /// (`swift_beginAccess`/`swift_endAccess`) each, and with the retains and releases of
    /// ``levels`` and the list table they were about a tenth of a point's time (`perf annotate` of the
    /// membership benchmark).
    private struct Scratch {
        /// The fences found, `foundCount` of them, in room for `foundRoom` (grown by doubling).
        var found = UnsafeMutablePointer<Int>.allocate(capacity: 16)
        var foundCount = 0
        var foundRoom = 16
        var listCache = GeofenceListCache()

        @inline(__always)
        mutating func append(_ n: Int) {
            if foundCount == foundRoom {
                let larger = UnsafeMutablePointer<Int>.allocate(capacity: 2 * foundRoom)
                larger.moveInitialize(from: found, count: foundCount)
                found.deallocate()
                found = larger
                foundRoom *= 2
            }
            found[foundCount] = n
            foundCount += 1
        }

        var fences: UnsafeBufferPointer<Int> { UnsafeBufferPointer(start: found, count: foundCount) }
    }
    private let scratch: UnsafeMutablePointer<Scratch>

    /// The set's grid, shapes and list table, held here too: one load each, not two.
    private let grid: GeofenceGrid
    private let shapes: FenceShapes
    private let lists: GeofenceListTable
    /// The grid's levels, in memory the locator owns (iterating the grid's array retained it).
    private let levels: UnsafeMutableBufferPointer<Int>

    init(set: GeofenceSet) throws(GEOSError) {
        self.set = set
        grid = set.grid
        shapes = set.shapes
        lists = set.lists
        context = try GEOSContext()
        levels = .allocate(capacity: set.grid.levels.count)
        _ = levels.initialize(from: set.grid.levels)
        scratch = .allocate(capacity: 1)
        scratch.initialize(to: Scratch())
    }

    deinit {
        levels.deallocate()
        scratch.pointee.found.deallocate()
        scratch.deinitialize(count: 1)
        scratch.deallocate()
    }

    /// The numbers (places in ``GeofenceSet/fences``) of the fences holding `point`, ascending,
    /// which is ascending order of id.
    ///
    /// - Complexity: one table probe per grid level in use, plus an exact test per fence whose
    ///   edge passes the point's cell.
    public func fences(containing point: GeoPoint) -> [Int] {
        collect(point)
        return Array(scratch.pointee.fences)
    }

    /// Whether `point` is a position a query answers (finite, in range); any other is in no fence.
    @inline(__always)
    private static func isQueryable(_ point: GeoPoint) -> Bool {
        point.latitude.isFinite && point.longitude.isFinite
            && (-90...90).contains(point.latitude) && (-180...180).contains(point.longitude)
    }

    /// The fences holding `point`, ascending, in the scratch's `fences`.
    @inline(__always)
    private func collect(_ point: GeoPoint) {
        let scratch = self.scratch
        scratch.pointee.foundCount = 0
        guard Self.isQueryable(point) else { return }
        for k in levels {
            for mark in grid.marks(level: k, latitude: point.latitude, longitude: point.longitude) {
                let n = Int(mark >> 2)
                if mark & 1 == 1 || holds(n, circle: mark & 2 != 0, point) { scratch.pointee.append(n) }
            }
        }
        let found = scratch.pointee.found, count = scratch.pointee.foundCount
        if count > 16 {
            var all = UnsafeMutableBufferPointer(start: found, count: count)
            all.sort()
        } else if count > 1 {
            // a few, and most often already in order (one level's marks are in fence order)
            for i in 1..<count {
                let n = found[i]
                var j = i
                while j > 0 && found[j - 1] > n {
                    found[j] = found[j - 1]
                    j -= 1
                }
                found[j] = n
            }
        }
    }

    /// Starts bringing in the part of the index a query of `point` reads first, so that a
    /// ``list(containing:)`` of it after other work finds it in the cache (see
    /// ``LocationLookup/Locator/prefetch(latitude:longitude:)``).
    @inline(__always)
    public func prefetch(_ point: GeoPoint) {
        guard Self.isQueryable(point) else { return }
        for k in levels { grid.prefetch(level: k, latitude: point.latitude, longitude: point.longitude) }
    }

    /// After ``prefetch(_:)`` and other work: starts bringing in the entries of the fences
    /// whose edge passes `point`'s cells (the ones a query tests exactly), reading the cells'
    /// slots, which the first prefetch has brought in by then.
    @inline(__always)
    public func prefetchShapes(_ point: GeoPoint) {
        guard Self.isQueryable(point) else { return }
        for k in levels {
            for mark in grid.marks(level: k, latitude: point.latitude, longitude: point.longitude) where mark & 1 == 0 {
                shapes.prefetch(Int(mark >> 2), circle: mark & 2 != 0)
            }
        }
    }

    /// The fences holding `point` as a handle of the set's ``GeofenceSet/lists`` (what an
    /// ``Enrichment`` keeps).
    ///
    /// - Complexity: ``fences(containing:)``'s, and for a point in two or more fences a lookup
    ///   of the list in the table.
    public func list(containing point: GeoPoint) -> GeofenceList {
        collect(point)
        return lists.list(of: scratch.pointee.fences, cache: &scratch.pointee.listCache)
    }

    /// The ids of the fences holding `point`, in ascending order.
    public func ids(containing point: GeoPoint) -> [String] {
        fences(containing: point).map { set.fences[$0].id }
    }

    /// The exact test of fence `n`, a circle or a polygon as its mark says.
    @inline(__always)
    private func holds(_ n: Int, circle: Bool, _ point: GeoPoint) -> Bool {
        if circle {
            let e = shapes.circles[n]
            if abs(e.centre.latitude) <= 85 && abs(point.latitude) <= 85 {
                // from the centre's sine and cosine, kept: no trigonometric call for a point near
                let d = LocalDistance.metres(from: e.centre, lat2: point.latitude, lng2: point.longitude)
                if d <= 20_000 {
                    let bound = LocalDistance.errorBound(distance: d, absTan: e.centre.absTanLatitude)
                    if d + bound < e.radius { return true }
                    if d - bound > e.radius { return false }
                }
            }
            return Geodesic.wgs84.distance(from: GeoPoint(latitude: e.centre.latitude, longitude: e.centre.longitude), to: point) <= e.radius
        }
        let e = shapes.polygons[n]
        if point.longitude < e.west || point.longitude > e.east || point.latitude < e.south || point.latitude > e.north {
            return false
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
/// and counts no reference, and reads one entry and, for a polygon, one run of coordinates:
/// a circle's centre (with its trigonometry) and radius; a polygon's box and where its rings
/// are in ``coordinates``. Entries are by fence number, in two arrays (a fence's mark in the
/// grid says which): 56 and 40 bytes, where one entry for both was 104 and a polygon's rings
/// were a third array, a cache miss more.
///
/// `@unchecked Sendable`: the three tables are memory it allocates and fills in `init` and only
/// reads after (as ``GeofenceGrid``'s table), so threads share them as the arrays of a `let`.
/// They are not arrays because reading an array stored in a class retained and released its
/// buffer around each test: with the list's scratch array, about 70 of the 950 instructions a
/// point of the membership benchmark (callgrind).
final class FenceShapes: @unchecked Sendable {
    struct Circle {
        /// The centre, with its latitude's sine, cosine and |tangent| for ``LocalDistance``
        /// (which makes no use of them beyond ±85°, where the exact geodesic decides).
        var centre = LocalDistance.Point(latitude: 0, longitude: 0)
        var radius = 0.0
    }

    struct Polygon {
        /// The box of its exterior rings widened by the grid's margin: a point outside it is
        /// outside the polygon and more than the margin from its edges, decided without reading
        /// its rings (28 % of the points tested against a polygon in `make bench`'s membership
        /// benchmark).
        var west = 0.0, east = 0.0, south = 0.0, north = 0.0
        /// Where its rings begin in ``coordinates``, and how many there are.
        var start: Int32 = 0, rings: Int32 = 0
    }

    enum Answer { case inside, outside, nearEdge }

    /// Starts bringing in fence `n`'s entry (see ``GeofenceLocator/prefetchShapes(_:)``).
    @inline(__always)
    func prefetch(_ n: Int, circle: Bool) {
        if circle {
            geo_prefetch_for_reading(circles.baseAddress! + n)
        } else {
            geo_prefetch_for_reading(polygons.baseAddress! + n)
        }
    }

    /// By fence number (a polygon's entry in `circles` and a circle's in `polygons` unused).
    let circles: UnsafeMutableBufferPointer<Circle>
    let polygons: UnsafeMutableBufferPointer<Polygon>
    /// Each polygon's rings in a row, each ring as its count of numbers (2 a point) and then its
    /// points' longitudes and latitudes (closed rings).
    let coordinates: UnsafeMutableBufferPointer<Double>

    deinit {
        circles.deallocate()
        polygons.deallocate()
        coordinates.deallocate()
    }

    private init(circles: UnsafeMutableBufferPointer<Circle>, polygons: UnsafeMutableBufferPointer<Polygon>,
                 coordinates: UnsafeMutableBufferPointer<Double>) {
        self.circles = circles
        self.polygons = polygons
        self.coordinates = coordinates
    }

    /// The shapes of `fences`, and each fence's box (``GeofenceGrid/box(of:)``, which the grid
    /// marks from and which a polygon's entry keeps widened: the grid's own pass for the boxes
    /// took 4 ms of loading 20,000 fences, on one thread). Written where they are kept: built
    /// as arrays and then copied, the tables' 4 MB for 20,000 fences were faulted in twice.
    ///
    /// One thread's work: ``GeofenceSet``'s list table is made meanwhile on another (made in
    /// parts beside it, this took as long, 10 ms, in a timeline of `lookup --geofences`).
    static func build(_ fences: [Geofence]) -> (shapes: FenceShapes, boxes: [GeofenceGrid.Box]) {
        // room for one element at least, so that an empty table has a base address to prefetch from
        func table<T>(_ count: Int, _ value: T) -> UnsafeMutableBufferPointer<T> {
            let p = UnsafeMutableBufferPointer<T>.allocate(capacity: max(1, count))
            p.initialize(repeating: value)
            return UnsafeMutableBufferPointer(rebasing: p[0..<count])
        }
        let circles = table(fences.count, Circle()), polygons = table(fences.count, Polygon())
        let coordinates = table(fences.reduce(0) { total, fence in
            guard case .polygons(let rings) = fence.shape else { return total }
            return rings.joined().reduce(total) { $0 + 1 + 2 * $1.count }
        }, 0.0)
        var boxes: [GeofenceGrid.Box] = []
        boxes.reserveCapacity(fences.count)
        var at = 0
        for (n, fence) in fences.enumerated() {
            let box = GeofenceGrid.box(of: fence)
            boxes.append(box)
            switch fence.shape {
            case .circle(let center, let radius):
                circles[n] = Circle(centre: LocalDistance.Point(latitude: center.latitude, longitude: center.longitude), radius: radius)
            case .polygons(let rings):
                var e = Polygon(west: box.west - GeofenceGrid.margin, east: box.east + GeofenceGrid.margin,
                                south: box.south - GeofenceGrid.margin, north: box.north + GeofenceGrid.margin)
                e.start = Int32(at)
                for ring in rings.joined() {
                    coordinates[at] = Double(2 * ring.count)
                    at += 1
                    for p in ring {
                        coordinates[at] = p.longitude
                        coordinates[at + 1] = p.latitude
                        at += 2
                    }
                    e.rings += 1
                }
                polygons[n] = e
            }
        }
        return (FenceShapes(circles: circles, polygons: polygons, coordinates: coordinates), boxes)
    }

    var bytes: Int {
        circles.count * MemoryLayout<Circle>.stride + polygons.count * MemoryLayout<Polygon>.stride + coordinates.count * 8
    }

    /// Where the parallel at `y` crosses the polygon's edges, in ascending order: the
    /// longitudes `xi` of ``evenOdd(_:x:y:margin:)``, by its very arithmetic, so that a point
    /// (x, y) at no edge is inside exactly when an odd number of them are greater than x.
    /// The grid fills a row of a polygon's cells with one of these, not a ring walk a cell.
    func crossings(_ e: Polygon, y: Double, into xs: inout [Double]) {
        xs.removeAll(keepingCapacity: true)
        forEachEdge(of: e) { ax, ay, bx, by in
            if let xi = Self.crossing(y, ax, ay, bx, by) { xs.append(xi) }
            return true
        }
        xs.sort()
    }

    /// Calls `body` with each edge (ax, ay) → (bx, by) of every ring of a polygon, until it
    /// returns false; whether it went through them all.
    @inline(__always)
    private func forEachEdge(of e: Polygon, _ body: (Double, Double, Double, Double) -> Bool) -> Bool {
        let p = coordinates
        var at = Int(e.start)
        for _ in 0..<e.rings {
            let end = at + 1 + Int(p[at])
            var i = at + 1
            at = end
            while i + 2 < end {
                guard body(p[i], p[i + 1], p[i + 2], p[i + 3]) else { return false }
                i += 2
            }
        }
        return true
    }

    /// Where the edge (ax, ay) → (bx, by) crosses the parallel at `y` (the even-odd rule's
    /// crossing: an edge counts when one end is above `y` and the other not), or nil.
    @inline(__always)
    private static func crossing(_ y: Double, _ ax: Double, _ ay: Double, _ bx: Double, _ by: Double) -> Double? {
        (ay > y) != (by > y) ? ax + (y - ay) * (bx - ax) / (by - ay) : nil
    }

    /// The even-odd rule over every ring of a polygon, or ``Answer/nearEdge`` when (x, y) lies
    /// within `margin` of an edge, where rounding could decide it either way.
    @inline(__always)
    func evenOdd(_ e: Polygon, x: Double, y: Double, margin: Double) -> Answer {
        var inside = false
        let m2 = margin * margin
        let apart = forEachEdge(of: e) { ax, ay, bx, by in
            // most edges are wholly above or below the point's parallel by more than the
            // margin: they neither cross it nor come near, which the tests below would find at
            // several times the cost. This is exactly the box test's `y < min(ay, by) - margin`
            // (or its `max` twin) taken end by end, since rounding is monotonic: a point's
            // answer is the same with or without this line.
            if (ay - margin > y && by - margin > y) || (ay + margin < y && by + margin < y) { return true }
            if let xi = Self.crossing(y, ax, ay, bx, by), x < xi { inside.toggle() }
            // near the edge? (a cheap box test first)
            if x < min(ax, bx) - margin || x > max(ax, bx) + margin
                || y < min(ay, by) - margin || y > max(ay, by) + margin { return true }
            let dx = bx - ax, dy = by - ay
            let len2 = dx * dx + dy * dy
            let t = len2 > 0 ? min(1, max(0, ((x - ax) * dx + (y - ay) * dy) / len2)) : 0
            let ex = ax + t * dx - x, ey = ay + t * dy - y
            return !(ex * ex + ey * ey <= m2)  // (not `>`: a NaN distance counts as apart)
        }
        if !apart { return .nearEdge }
        return inside ? .inside : .outside
    }

}
