import CGEOS

/// A GEOS geometry (polygon, multipolygon, …) owned by Swift and freed on `deinit`.
///
/// Coordinates are planar in degrees: x is longitude and y is latitude, as in WKT and GeoJSON.
/// Geometries are not `Sendable`; see `GEOSContext` for the threading rule.
public final class Geometry {
    /// The context that made the geometry; kept alive for as long as the geometry is.
    public let context: GEOSContext
    /// The owned `GEOSGeometry *`.
    let pointer: OpaquePointer

    init(context: GEOSContext, pointer: OpaquePointer) {
        self.context = context
        self.pointer = pointer
    }

    deinit {
        GEOSGeom_destroy_r(context.handle, pointer)
    }

    /// Parses a geometry from well-known text, e.g. `POLYGON ((0 0, 1 0, 1 1, 0 1, 0 0))`.
    ///
    /// The geometry is not checked for validity (self-intersections and the like); GEOS
    /// predicates may fail later on an invalid one.
    /// - Parameters:
    ///   - wkt: OGC well-known text, longitude before latitude.
    ///   - context: The context to create the geometry in.
    /// - Throws: `GEOSError` of kind `.invalidWKT` with GEOS's parse message.
    /// - Complexity: O(n) in the length of `wkt`.
    public convenience init(wkt: String, context: GEOSContext) throws(GEOSError) {
        // A NUL would silently end the C string early and GEOS would parse only a prefix.
        if wkt.utf8.contains(0) {
            throw GEOSError(.invalidWKT, function: nil, message: "the text contains a NUL character")
        }
        let reader = try context.call(.invalidWKT, "GEOSWKTReader_create_r") {
            GEOSWKTReader_create_r($0)
        }
        defer { GEOSWKTReader_destroy_r(context.handle, reader) }
        let pointer = try context.call(.invalidWKT, "GEOSWKTReader_read_r") {
            GEOSWKTReader_read_r($0, reader, wkt)
        }
        self.init(context: context, pointer: pointer)
    }

    /// Parses a geometry from OGC well-known binary (either byte order, 2D or with Z/M).
    ///
    /// The bytes are copied into GEOS's own geometry, so the buffer may be released (or be a
    /// memory-mapped file) after the call. Coordinates keep their exact bits. The geometry is
    /// not checked for validity, as with ``init(wkt:context:)``.
    /// - Parameters:
    ///   - wkb: The WKB bytes of one geometry, nothing after it.
    ///   - context: The context to create the geometry in.
    /// - Throws: `GEOSError` of kind `.invalidWKB` with GEOS's message (truncated bytes, an
    ///   unknown geometry type, a ring that is not closed, …).
    /// - Complexity: O(n) in the length of `wkb`.
    public convenience init(wkb: UnsafeRawBufferPointer, context: GEOSContext) throws(GEOSError) {
        guard let bytes = wkb.baseAddress, !wkb.isEmpty else {
            throw GEOSError(.invalidWKB, function: nil, message: "no bytes to parse")
        }
        let reader = try context.call(.invalidWKB, "GEOSWKBReader_create_r") {
            GEOSWKBReader_create_r($0)
        }
        defer { GEOSWKBReader_destroy_r(context.handle, reader) }
        let pointer = try context.call(.invalidWKB, "GEOSWKBReader_read_r") {
            GEOSWKBReader_read_r($0, reader, bytes.assumingMemoryBound(to: UInt8.self), wkb.count)
        }
        self.init(context: context, pointer: pointer)
    }

    /// Builds a polygon without holes from its exterior ring.
    ///
    /// The polygon is not checked for validity (repeated vertices, self-intersections).
    /// - Parameters:
    ///   - exteriorRing: The ring's vertices in order, either direction. If the last point is
    ///     not equal to the first, the ring is closed by repeating the first point.
    ///   - context: The context to create the geometry in.
    /// - Throws: `GEOSError` of kind `.invalidGeometry` if the closed ring has fewer than
    ///   4 points (3 vertices), or if GEOS rejects it.
    /// - Complexity: O(n) in the number of points.
    public convenience init(exteriorRing: [GeoPoint], context: GEOSContext) throws(GEOSError) {
        var ring = exteriorRing
        if let first = ring.first, ring.last != first {
            ring.append(first)
        }
        // GEOS's own rule for rings, checked here because GEOS 3.11 accepts a closed 3-point
        // "ring" (a, b, a), which encloses nothing.
        guard ring.count >= 4 else {
            throw GEOSError(.invalidGeometry, function: nil, message:
                "an exterior ring needs at least 3 vertices; got \(Set(exteriorRing).count) distinct")
        }
        let shell = try Geometry.ring(ring, context: context)
        // The polygon takes ownership of a shell that is a linear ring, which this one is.
        let polygon = try context.call(.invalidGeometry, "GEOSGeom_createPolygon_r") {
            GEOSGeom_createPolygon_r($0, shell, nil, 0)
        }
        self.init(context: context, pointer: polygon)
    }

    /// Prepares the geometry for repeated predicate tests against many points.
    /// - Returns: A prepared geometry that keeps this geometry alive.
    /// - Throws: `GEOSError` of kind `.preparationFailed`.
    /// - Complexity: O(1) here; GEOS builds its index, O(n log n) in the vertex count, on the
    ///   first query.
    public func prepared() throws(GEOSError) -> PreparedGeometry {
        try PreparedGeometry(geometry: self)
    }
}
