import GeoBridge

/// The polygons of one country record for GEOS, each read and prepared only when a point in its
/// envelope first needs it, and found through a grid of 1° cells over the record's envelope.
///
/// A country's MultiPolygon can be large (Canada's: 412 polygons, 68,193 points), and a prepared
/// geometry costs GEOS about 120 bytes a point. A point near a border or coast needs only the
/// polygons whose envelope holds it, usually one, so only those are prepared: the memory follows
/// the coasts and borders that the points come near, not the whole country. A point intersects
/// the MultiPolygon exactly when it intersects one of its polygons, so the answer is unchanged.
///
/// Not `Sendable`: it holds prepared geometries of one locator's GEOS context.
final class RecordPolygons {
    private struct Entry {
        let polygon: WKBStructure.Polygon
        var prepared: PreparedGeometry?
    }

    /// The polygons, largest first (a point inside a country's main polygon is answered by the
    /// first test).
    private var entries: [Entry]
    /// The record's envelope's south-west corner, degrees, and the grid's size in 1° cells.
    private let west: Double, south: Double
    private let columns: Int, rows: Int
    /// The entries whose envelope meets cell c are `members[cellStarts[c]..<cellStarts[c + 1]]`,
    /// in entry order.
    private let cellStarts: [Int32]
    private let members: [Int32]

    /// Reads the polygons of a record's WKB (already checked by ``WKBStructure/problem(in:)``).
    ///
    /// - Complexity: O(n) in the points, plus the grid cells the polygons' envelopes cover.
    init(wkb: UnsafeRawBufferPointer) {
        // (a polygon without points, which WKB allows, holds no point and has no envelope)
        let polygons = WKBStructure.polygons(in: wkb).filter { $0.pointCount > 0 }
        let order = polygons.indices.sorted {
            (polygons[$0].pointCount, $1) > (polygons[$1].pointCount, $0)
        }
        entries = order.map { Entry(polygon: polygons[$0], prepared: nil) }
        let west = entries.map(\.polygon.west).min() ?? 0, east = entries.map(\.polygon.east).max() ?? 0
        let south = entries.map(\.polygon.south).min() ?? 0, north = entries.map(\.polygon.north).max() ?? 0
        self.west = west
        self.south = south
        let columns = Int((east - west).rounded(.down)) + 1, rows = Int((north - south).rounded(.down)) + 1
        self.columns = columns
        self.rows = rows

        // the cells an envelope meets: the same floor of the offset from the corner that a point
        // of the envelope gets (subtraction and floor are monotonic, so no point is missed)
        func cells(_ p: WKBStructure.Polygon) -> (columns: ClosedRange<Int>, rows: ClosedRange<Int>) {
            (Int((p.west - west).rounded(.down))...Int((p.east - west).rounded(.down)),
             Int((p.south - south).rounded(.down))...Int((p.north - south).rounded(.down)))
        }
        var counts = [Int32](repeating: 0, count: columns * rows + 1)
        for entry in entries {
            let (cs, rs) = cells(entry.polygon)
            for r in rs { for c in cs { counts[r * columns + c + 1] += 1 } }
        }
        for c in 0..<columns * rows { counts[c + 1] += counts[c] }
        var next = counts
        var members = [Int32](repeating: 0, count: Int(counts[columns * rows]))
        for (k, entry) in entries.enumerated() {
            let (cs, rs) = cells(entry.polygon)
            for r in rs {
                for c in cs {
                    members[Int(next[r * columns + c])] = Int32(k)
                    next[r * columns + c] += 1
                }
            }
        }
        cellStarts = counts
        self.members = members
    }

    /// Whether the point intersects (lies in or on) one of the polygons, preparing each polygon
    /// the first time a point in its envelope is tested.
    ///
    /// - Parameters:
    ///   - point: the point (longitude is the WKB's x).
    ///   - wkb: the record's WKB, the bytes this was made from.
    ///   - context: the GEOS context of the calling locator.
    /// - Complexity: a grid cell's envelope tests, then GEOS's prepared test, O(log n) in a
    ///   polygon's points, for each polygon whose envelope holds the point.
    func intersects(_ point: GeoPoint, wkb: UnsafeRawBufferPointer, context: GEOSContext) throws(GEOSError) -> Bool {
        let x = point.longitude, y = point.latitude
        guard x >= west, y >= south else { return false }
        let column = Int((x - west).rounded(.down)), row = Int((y - south).rounded(.down))
        guard column < columns, row < rows else { return false }
        let cell = row * columns + column
        for m in Int(cellStarts[cell])..<Int(cellStarts[cell + 1]) {
            let k = Int(members[m])
            let p = entries[k].polygon
            guard x >= p.west, x <= p.east, y >= p.south, y <= p.north else { continue }
            let geometry: PreparedGeometry
            if let cached = entries[k].prepared {
                geometry = cached
            } else {
                geometry = try Geometry(wkb: UnsafeRawBufferPointer(rebasing: wkb[p.bytes]), context: context).prepared()
                entries[k].prepared = geometry
            }
            if try geometry.intersects(point) { return true }
        }
        return false
    }
}
