import CGEOS

/// A geometry indexed by GEOS for fast repeated point-in-polygon tests (`GEOSPrepare_r`).
///
/// Not `Sendable`: GEOS builds the index lazily on the first query, so even queries mutate it.
/// See `GEOSContext` for the threading rule.
public final class PreparedGeometry {
    /// The geometry that was prepared; GEOS's prepared geometry points into it, so it is kept
    /// alive here.
    public let geometry: Geometry
    /// The owned `const GEOSPreparedGeometry *`.
    private let pointer: OpaquePointer

    init(geometry: Geometry) throws(GEOSError) {
        self.geometry = geometry
        pointer = try geometry.context.call(.preparationFailed, "GEOSPrepare_r") {
            GEOSPrepare_r($0, geometry.pointer)
        }
    }

    deinit {
        GEOSPreparedGeom_destroy_r(geometry.context.handle, pointer)
    }

    /// Whether the point lies in the interior of the geometry.
    ///
    /// A point exactly on the boundary is not contained (OGC `contains`). The point is taken as
    /// planar `x = longitude`, `y = latitude`.
    /// - Parameter point: The point to test.
    /// - Returns: `true` if the point is inside.
    /// - Throws: `GEOSError` of kind `.invalidGeometry` if GEOS cannot create the point, or
    ///   `.predicateFailed` if the predicate raises (e.g. on an invalid geometry).
    /// - Complexity: O(log n) in the vertex count after the first query, which builds the index.
    public func contains(_ point: GeoPoint) throws(GEOSError) -> Bool {
        try test(point, "GEOSPreparedContains_r", GEOSPreparedContains_r)
    }

    /// Whether the point lies in the geometry or on its boundary (OGC `intersects`).
    ///
    /// The point-in-polygon rule of shapely's `intersects_xy`: a point exactly on an edge or at
    /// a vertex counts as inside. The point is taken as planar `x = longitude`, `y = latitude`.
    /// - Parameter point: The point to test.
    /// - Returns: `true` if the point is inside or on the boundary.
    /// - Throws: `GEOSError` of kind `.invalidGeometry` if GEOS cannot create the point, or
    ///   `.predicateFailed` if the predicate raises.
    /// - Complexity: O(log n) in the vertex count after the first query, which builds the index.
    public func intersects(_ point: GeoPoint) throws(GEOSError) -> Bool {
        try test(point, "GEOSPreparedIntersects_r", GEOSPreparedIntersects_r)
    }

    /// Runs a prepared predicate against a point.
    ///
    /// GEOS 3.11 has no `GEOSPrepared…XY_r` variants (added in 3.12), so each call creates and
    /// frees a GEOS point.
    private func test(
        _ point: GeoPoint, _ function: String,
        _ predicate: (GEOSContextHandle_t?, OpaquePointer?, OpaquePointer?) -> CChar
    ) throws(GEOSError) -> Bool {
        let context = geometry.context
        let geosPoint = try context.call(.invalidGeometry, "GEOSGeom_createPointFromXY_r") {
            GEOSGeom_createPointFromXY_r($0, point.longitude, point.latitude)
        }
        defer { GEOSGeom_destroy_r(context.handle, geosPoint) }
        // GEOS predicates return 1 (true), 0 (false) or 2 (exception).
        let answer = try context.call(.predicateFailed, function) { handle -> CChar? in
            let result = predicate(handle, pointer, geosPoint)
            return result == 2 ? nil : result
        }
        return answer == 1
    }
}
