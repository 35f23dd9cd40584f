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
}
