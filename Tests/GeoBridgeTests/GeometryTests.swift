import GeoBridge
import Testing

@Suite struct GeometryTests {
    @Test func parsesPolygonWKT() throws {
        let context = try GEOSContext()
        _ = try Geometry(wkt: "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))", context: context)
    }

    @Test func parsesMultiPolygonWKT() throws {
        let context = try GEOSContext()
        _ = try Geometry(
            wkt: "MULTIPOLYGON (((0 0, 1 0, 1 1, 0 0)), ((5 5, 6 5, 6 6, 5 5)))", context: context)
    }

    @Test(arguments: [
        "POLYGN ((0 0, 1 0, 1 1, 0 0))",  // misspelt type
        "POLYGON ((0 0, 1 0, 1 1, 0 0)",  // unbalanced parenthesis
        "POLYGON ((0 0, 1 0, 1 x, 0 0))",  // not a number
        "",
    ])
    func invalidWKTThrowsWithGEOSMessage(_ wkt: String) throws {
        let context = try GEOSContext()
        let error = #expect(throws: GEOSError.self) { try Geometry(wkt: wkt, context: context) }
        #expect(error?.kind == .invalidWKT)
        #expect(error?.function == "GEOSWKTReader_read_r")
        #expect(error?.message.contains("ParseException") == true)
        #expect(error?.message.last?.isNewline == false)
    }

    /// A NUL would end the C string early; the prefix here is valid WKT on its own.
    @Test func embeddedNULIsRejected() throws {
        let context = try GEOSContext()
        let error = #expect(throws: GEOSError.self) {
            try Geometry(wkt: "POINT (1 2)\0garbage", context: context)
        }
        #expect(error?.kind == .invalidWKT)
        #expect(error?.function == nil)
    }

    @Test func buildsPolygonFromClosedRing() throws {
        let context = try GEOSContext()
        let ring = [
            GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 10),
            GeoPoint(latitude: 10, longitude: 10), GeoPoint(latitude: 10, longitude: 0),
            GeoPoint(latitude: 0, longitude: 0),
        ]
        let square = try Geometry(exteriorRing: ring, context: context).prepared()
        #expect(try square.contains(GeoPoint(latitude: 5, longitude: 5)))
    }

    @Test func closesAnOpenRing() throws {
        let context = try GEOSContext()
        let ring = [
            GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 10),
            GeoPoint(latitude: 10, longitude: 10),
        ]
        let triangle = try Geometry(exteriorRing: ring, context: context).prepared()
        #expect(try triangle.contains(GeoPoint(latitude: 2, longitude: 8)))
        #expect(try !triangle.contains(GeoPoint(latitude: 8, longitude: 2)))
    }

    static let a = GeoPoint(latitude: 0, longitude: 0)
    static let b = GeoPoint(latitude: 1, longitude: 1)

    /// GEOS 3.11 itself accepts the closed "ring" a, b, a, which encloses nothing.
    @Test(arguments: [[], [a], [a, b], [a, b, a], [a, a, a]])
    func fewerThanThreeVerticesIsRejected(_ ring: [GeoPoint]) throws {
        let context = try GEOSContext()
        let error = #expect(throws: GEOSError.self) {
            try Geometry(exteriorRing: ring, context: context)
        }
        #expect(error?.kind == .invalidGeometry)
        #expect(error?.function == nil)
        #expect(error?.message.contains("at least 3 vertices") == true)
    }

    // MARK: WKB

    /// Little-endian WKB of POLYGON ((0 0, 10 0, 10 20, 0 20, 0 0)), written out by hand.
    static let rectangleWKB: [UInt8] = {
        var bytes: [UInt8] = [1]
        func u32(_ v: UInt32) { withUnsafeBytes(of: v.littleEndian) { bytes += $0 } }
        func f64(_ v: Double) { withUnsafeBytes(of: v.bitPattern.littleEndian) { bytes += $0 } }
        u32(3)  // Polygon
        u32(1)  // one ring
        u32(5)  // of five points
        for (x, y) in [(0.0, 0.0), (10, 0), (10, 20), (0, 20), (0, 0)] {
            f64(x)
            f64(y)
        }
        return bytes
    }()

    /// Parses `wkb` from a buffer of its own, as a data file's mapping would hold it.
    static func geometry(wkb: [UInt8], context: GEOSContext) throws(GEOSError) -> Geometry {
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: wkb.count, alignment: 8)
        defer { buffer.deallocate() }
        buffer.copyBytes(from: wkb)
        return try Geometry(wkb: UnsafeRawBufferPointer(buffer), context: context)
    }

    @Test func parsesPolygonWKB() throws {
        let context = try GEOSContext()
        let rectangle = try Self.geometry(wkb: Self.rectangleWKB, context: context).prepared()
        #expect(try rectangle.contains(GeoPoint(latitude: 15, longitude: 5)))
        #expect(try !rectangle.contains(GeoPoint(latitude: 5, longitude: 15)))
    }

    static let unknownTypeWKB: [UInt8] = [1, 99, 0, 0, 0] + rectangleWKB[5...]

    @Test(arguments: [Array(rectangleWKB.dropLast(8)), unknownTypeWKB, [1]])
    func invalidWKBThrowsWithGEOSMessage(_ wkb: [UInt8]) throws {
        let context = try GEOSContext()
        let error = #expect(throws: GEOSError.self) { try Self.geometry(wkb: wkb, context: context) }
        #expect(error?.kind == .invalidWKB)
        #expect(error?.function == "GEOSWKBReader_read_r")
        #expect(error?.message.isEmpty == false)
    }

    @Test func emptyWKBIsRejected() throws {
        let context = try GEOSContext()
        let error = #expect(throws: GEOSError.self) { try Self.geometry(wkb: [], context: context) }
        #expect(error?.kind == .invalidWKB)
        #expect(error?.function == nil)
    }
}
