import GeoBridge
import Testing

@Suite struct PreparedGeometryTests {
    /// Longitude 0...10, latitude 0...20: asymmetric, so swapped axes would show.
    static let rectangleWKT = "POLYGON ((0 0, 10 0, 10 20, 0 20, 0 0))"

    @Test func containsInsidePoint() throws {
        let context = try GEOSContext()
        let rectangle = try Geometry(wkt: Self.rectangleWKT, context: context).prepared()
        #expect(try rectangle.contains(GeoPoint(latitude: 5, longitude: 5)))
        #expect(try rectangle.contains(GeoPoint(latitude: 15, longitude: 5)))
    }

    @Test func doesNotContainOutsidePoint() throws {
        let context = try GEOSContext()
        let rectangle = try Geometry(wkt: Self.rectangleWKT, context: context).prepared()
        #expect(try !rectangle.contains(GeoPoint(latitude: 5, longitude: 15)))
        #expect(try !rectangle.contains(GeoPoint(latitude: -1, longitude: 5)))
    }

    /// WKT is x y, so longitude first: latitude 15 is inside, longitude 15 is not.
    @Test func usesLongitudeAsX() throws {
        let context = try GEOSContext()
        let rectangle = try Geometry(wkt: Self.rectangleWKT, context: context).prepared()
        #expect(try rectangle.contains(GeoPoint(latitude: 15, longitude: 5)))
        #expect(try !rectangle.contains(GeoPoint(latitude: 5, longitude: 15)))
    }

    /// OGC `contains`: boundary points are not in the interior.
    @Test func boundaryIsNotContained() throws {
        let context = try GEOSContext()
        let rectangle = try Geometry(wkt: Self.rectangleWKT, context: context).prepared()
        #expect(try !rectangle.contains(GeoPoint(latitude: 0, longitude: 5)))
        #expect(try !rectangle.contains(GeoPoint(latitude: 0, longitude: 0)))
    }

    /// Countries have holes (enclaves) and several parts (islands).
    @Test func holesAndPartsOfAMultiPolygon() throws {
        let context = try GEOSContext()
        let wkt = """
            MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0), (4 4, 6 4, 6 6, 4 6, 4 4)), \
            ((20 20, 21 20, 21 21, 20 21, 20 20)))
            """
        let country = try Geometry(wkt: wkt, context: context).prepared()
        #expect(try country.contains(GeoPoint(latitude: 2, longitude: 2)))
        #expect(try !country.contains(GeoPoint(latitude: 5, longitude: 5)))
        #expect(try country.contains(GeoPoint(latitude: 20.5, longitude: 20.5)))
        #expect(try !country.contains(GeoPoint(latitude: 15, longitude: 15)))
    }

    /// The prepared index must give the same answers on every query, not only the first.
    @Test func repeatedQueriesAgree() throws {
        let context = try GEOSContext()
        let rectangle = try Geometry(wkt: Self.rectangleWKT, context: context).prepared()
        for step in 0..<200 {
            let longitude = Double(step) * 0.1 - 5  // −5 ... 14.9
            let expected = longitude > 0 && longitude < 10
            #expect(try rectangle.contains(GeoPoint(latitude: 10, longitude: longitude)) == expected)
        }
    }

    /// OGC `intersects`: boundary points count, as in shapely's `intersects_xy`.
    @Test func intersectsIncludesTheBoundary() throws {
        let context = try GEOSContext()
        let rectangle = try Geometry(wkt: Self.rectangleWKT, context: context).prepared()
        #expect(try rectangle.intersects(GeoPoint(latitude: 15, longitude: 5)))
        #expect(try rectangle.intersects(GeoPoint(latitude: 0, longitude: 5)))
        #expect(try rectangle.intersects(GeoPoint(latitude: 20, longitude: 10)))
        #expect(try !rectangle.intersects(GeoPoint(latitude: 5, longitude: 15)))
        #expect(try !rectangle.intersects(GeoPoint(latitude: 20.000000000000004, longitude: 5)))
    }

    @Test func intersectsHolesAndParts() throws {
        let context = try GEOSContext()
        let wkt = """
            MULTIPOLYGON (((0 0, 10 0, 10 10, 0 10, 0 0), (4 4, 6 4, 6 6, 4 6, 4 4)), \
            ((20 20, 21 20, 21 21, 20 21, 20 20)))
            """
        let country = try Geometry(wkt: wkt, context: context).prepared()
        #expect(try !country.intersects(GeoPoint(latitude: 5, longitude: 5)))
        #expect(try country.intersects(GeoPoint(latitude: 4, longitude: 5)))  // the hole's edge
        #expect(try country.intersects(GeoPoint(latitude: 21, longitude: 21)))
        #expect(try !country.intersects(GeoPoint(latitude: 15, longitude: 15)))
    }
}
