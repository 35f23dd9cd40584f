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

    @Test func kindsAreDistinct() {
        let kinds: [GEOSError.Kind] = [
            .contextUnavailable, .invalidWKT, .invalidWKB, .invalidGeometry, .preparationFailed, .predicateFailed,
        ]
        #expect(Set(kinds).count == kinds.count)
        #expect(Set(kinds.map(\.description)).count == kinds.count)
    }
}
