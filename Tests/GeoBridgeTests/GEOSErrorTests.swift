import GeoBridge
import Testing

@Suite struct GEOSErrorTests {
    @Test func descriptionSaysWhatFailedAndWhatToDo() throws {
        let context = try GEOSContext()
        let error = #expect(throws: GEOSError.self) {
            try Geometry(wkt: "POLYGN ((0 0, 1 0, 1 1, 0 0))", context: context)
        }
        let description = try #require(error).description
        #expect(description.contains("could not parse the WKT"))
        #expect(description.contains("GEOSWKTReader_read_r"))
        #expect(description.contains(try #require(error).message))
    }

    @Test func aCheckMadeInSwiftNamesNoGEOSFunctionAndCountsWhatItGot() throws {
        let context = try GEOSContext()
        let error = #expect(throws: GEOSError.self) {
            try Geometry(exteriorRing: [GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 1, longitude: 1)], context: context)
        }
        let e = try #require(error)
        #expect(e.kind == .invalidGeometry && e.kind != .invalidWKT)
        #expect(e.function == nil)
        #expect(e.description == "\(GEOSError.Kind.invalidGeometry) (an exterior ring needs at least 3 vertices; got 2 distinct)")
    }

    @Test func aGEOSFailureCarriesItsKindFunctionAndMessage() throws {
        let context = try GEOSContext()
        // a WKB header that promises a polygon and stops
        let error = #expect(throws: GEOSError.self) {
            try [UInt8]([1, 3, 0, 0, 0]).withUnsafeBytes { try Geometry(wkb: $0, context: context) }
        }
        let e = try #require(error)
        #expect(e.kind == .invalidWKB)
        #expect(e.function == "GEOSWKBReader_read_r")
        #expect(e.message != "(GEOS reported no message)")
        #expect(e.description == "\(GEOSError.Kind.invalidWKB) (GEOSWKBReader_read_r: \(e.message))")
    }
}
