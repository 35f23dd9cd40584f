import CGEOS

/// Polygons with holes and multipolygons from coordinates, and GEOS's validity verdict: what the
/// geofence loader (GeoLookup's `GeofenceSet`) needs to check a user's fence file.
extension Geometry {
    /// Builds a polygon (one element) or a multipolygon (several) from rings of points.
    ///
    /// Coordinates keep their exact bits (GEOS copies the doubles). Nothing is checked beyond
    /// what GEOS needs to build the geometry: see ``validityProblem()``.
    /// - Parameters:
    ///   - polygons: each polygon's rings, the exterior first, then its holes; each ring closed
    ///     (its last point equal to its first) with at least 4 points.
    ///   - context: the context to create the geometry in.
    /// - Throws: `GEOSError` of kind `.invalidGeometry` for an empty list, a polygon without
    ///   rings, or a ring GEOS refuses (not closed, fewer than 4 points).
    /// - Complexity: O(n) in the number of points.
    public convenience init(polygons: [[[GeoPoint]]], context: GEOSContext) throws(GEOSError) {
        guard !polygons.isEmpty else {
            throw GEOSError(.invalidGeometry, function: nil, message: "no polygons")
        }
        var made: [OpaquePointer] = []
        // each polygon built so far is owned here until the collection takes it
        var handedOver = false
        defer { if !handedOver { for g in made { GEOSGeom_destroy_r(context.handle, g) } } }
        for rings in polygons {
            made.append(try Geometry.polygon(rings, context: context))
        }
        if made.count == 1 {
            handedOver = true
            self.init(context: context, pointer: made[0])
            return
        }
        var parts: [OpaquePointer?] = made
        let collection = try context.call(.invalidGeometry, "GEOSGeom_createCollection_r") { handle in
            parts.withUnsafeMutableBufferPointer {
                GEOSGeom_createCollection_r(handle, Int32(GEOS_MULTIPOLYGON.rawValue), $0.baseAddress, UInt32($0.count))
            }
        }
        handedOver = true  // the collection owns its parts now (GEOS frees them if it fails)
        self.init(context: context, pointer: collection)
    }

    /// One polygon, owned by the caller.
    private static func polygon(_ rings: [[GeoPoint]], context: GEOSContext) throws(GEOSError) -> OpaquePointer {
        guard let shellPoints = rings.first else {
            throw GEOSError(.invalidGeometry, function: nil, message: "a polygon without rings")
        }
        let shell = try ring(shellPoints, context: context)
        var holes: [OpaquePointer?] = []
        for points in rings.dropFirst() {
            do {
                holes.append(try ring(points, context: context))
            } catch {
                GEOSGeom_destroy_r(context.handle, shell)
                for h in holes { GEOSGeom_destroy_r(context.handle, h) }
                throw error
            }
        }
        // the polygon takes the shell and holes (and frees them if it fails)
        return try context.call(.invalidGeometry, "GEOSGeom_createPolygon_r") { handle in
            holes.withUnsafeMutableBufferPointer {
                GEOSGeom_createPolygon_r(handle, shell, $0.baseAddress, UInt32($0.count))
            }
        }
    }

    /// One linear ring, owned by the caller: the points' exact doubles, copied.
    static func ring(_ points: [GeoPoint], context: GEOSContext) throws(GEOSError) -> OpaquePointer {
        guard let count = UInt32(exactly: points.count) else {
            throw GEOSError(.invalidGeometry, function: nil, message: "\(points.count) points exceed GEOS's limit")
        }
        var xy: [Double] = []
        xy.reserveCapacity(points.count * 2)
        for p in points {
            xy.append(p.longitude)
            xy.append(p.latitude)
        }
        let sequence = try context.call(.invalidGeometry, "GEOSCoordSeq_copyFromBuffer_r") {
            GEOSCoordSeq_copyFromBuffer_r($0, xy, count, 0, 0)
        }
        // the ring takes the sequence (and frees it if it fails)
        return try context.call(.invalidGeometry, "GEOSGeom_createLinearRing_r") {
            GEOSGeom_createLinearRing_r($0, sequence)
        }
    }

    /// Why GEOS finds the geometry invalid (OGC validity: a self-intersecting ring, a hole
    /// outside its shell, overlapping parts of a multipolygon, …), with the place, or `nil` when
    /// it is valid (`GEOSisValidDetail_r`).
    /// - Returns: GEOS's reason (e.g. `Self-intersection`) and the point it names, if any.
    /// - Throws: `GEOSError` of kind `.predicateFailed` if GEOS raises.
    public func validityProblem() throws(GEOSError) -> (reason: String, location: GeoPoint?)? {
        var reason: UnsafeMutablePointer<CChar>? = nil
        var location: OpaquePointer? = nil
        let verdict = try context.call(.predicateFailed, "GEOSisValidDetail_r") { handle -> CChar? in
            let v = GEOSisValidDetail_r(handle, pointer, 0, &reason, &location)
            return v == 2 ? nil : v
        }
        defer {
            if let reason { GEOSFree_r(context.handle, reason) }
            if let location { GEOSGeom_destroy_r(context.handle, location) }
        }
        if verdict == 1 { return nil }
        let text = reason.map { String(cString: $0) } ?? "invalid geometry"
        var point: GeoPoint? = nil
        if let location {
            var x = 0.0, y = 0.0
            if GEOSGeomGetX_r(context.handle, location, &x) == 1, GEOSGeomGetY_r(context.handle, location, &y) == 1 {
                point = GeoPoint(latitude: y, longitude: x)
            }
        }
        return (text, point)
    }
}
