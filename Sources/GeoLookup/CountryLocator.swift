import GeoBridge
import GeoModel

/// Answers "which country holds this point" from a ``CountryIndex``, for one thread.
///
/// Most points are answered from the index's tiles and quadtree alone. A point in a small box
/// that a border or a coast crosses is tested against the box's candidate records, lowest index
/// first, with GEOS's prepared `intersects` (a point on a boundary is inside). Of a record's
/// MultiPolygon, only the polygons whose envelope holds a tested point are read from the file's
/// WKB and prepared, each the first time, once per locator (``RecordPolygons``).
///
/// Not `Sendable`: it owns a GEOS context and prepared geometries, which must stay on one
/// thread (see `GEOSContext`). Make one locator per thread or task; they can share the index.
public final class CountryLocator {
    /// The index the locator reads.
    public let index: CountryIndex
    private let context: GEOSContext
    /// The polygons of each record, once a point has needed the record (each prepared once a
    /// point in its envelope has needed it).
    private var polygons: [RecordPolygons?]

    /// Creates a locator with its own GEOS context.
    ///
    /// - Parameter index: the countries index; it may be shared with other locators.
    /// - Throws: `GEOSError` of kind `.contextUnavailable` if GEOS cannot allocate a context.
    public init(index: CountryIndex) throws(GEOSError) {
        self.index = index
        context = try GEOSContext()
        polygons = Array(repeating: nil, count: index.recordCount)
    }

    /// The country of the Natural Earth 10 m admin-0 polygon holding a point.
    ///
    /// - Parameters:
    ///   - latitude: degrees, −90…90.
    ///   - longitude: degrees, −180…180.
    /// - Returns: the record's `ISO_A2_EH`; `nil` when no polygon holds the point, when the
    ///   one that does has no code (`-99`), or for coordinates outside those ranges or not finite.
    /// - Complexity: a tile and quadtree descent (at most ``CountryFileLayout/maxDepth`` steps);
    ///   for a point near a border or coast, one GEOS point-in-polygon test per candidate,
    ///   O(log n) in a polygon's vertices, plus, the first time a polygon is needed, reading and
    ///   indexing it, O(n log n).
    public func country(latitude: Double, longitude: Double) -> CountryCode? {
        record(latitude: latitude, longitude: longitude).flatMap { index.records[$0].code }
    }

    /// The index of the record holding a point (the lowest-index record that intersects it), if any.
    func record(latitude: Double, longitude: Double) -> Int? {
        switch index.entry(latitude: latitude, longitude: longitude) {
        case .none, .node:
            return nil
        case .record(let r):
            return r
        case .list(let offset):
            let point = GeoPoint(latitude: latitude, longitude: longitude)
            for candidate in index.candidates(at: offset) {
                let r = Int(candidate)
                guard index.records[r].boundingBoxContains(latitude: latitude, longitude: longitude) else { continue }
                if intersects(record: r, point) { return r }
            }
            return nil
        }
    }

    /// Whether record `r`'s polygon intersects the point, preparing on first use the record's
    /// polygons whose envelope holds the point.
    ///
    /// The index validated the WKB against GEOS's reading rules when it opened the file, and a
    /// point-in-polygon test raises no GEOS exception, so a failure here can only be GEOS
    /// running out of memory; like Swift's own allocation failures, that stops the process
    /// rather than answer a wrong country.
    private func intersects(record r: Int, _ point: GeoPoint) -> Bool {
        let wkb = index.wkb(ofRecord: r)
        let record: RecordPolygons
        if let cached = polygons[r] {
            record = cached
        } else {
            record = RecordPolygons(wkb: wkb)
            polygons[r] = record
        }
        do {
            return try record.intersects(point, wkb: wkb, context: context)
        } catch {
            fatalError("GEOS failed on record \(r) of \(index.file.path), whose WKB passed validation: \(error)")
        }
    }
}
