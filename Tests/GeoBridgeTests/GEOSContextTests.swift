@testable import GeoBridge
import Testing

@Suite struct GEOSContextTests {
    @Test func createsAContext() throws {
        let context = try GEOSContext()
        #expect(context.lastErrorMessage == nil)
    }

    /// The error handler stores GEOS's message instead of printing it, and each failure
    /// reports its own message rather than a stale one.
    @Test func eachFailureCarriesItsOwnMessage() throws {
        let context = try GEOSContext()
        let first = #expect(throws: GEOSError.self) {
            try Geometry(wkt: "POLYGON ((0 0, 1 0", context: context)
        }
        _ = try Geometry(wkt: "POINT (1 2)", context: context)
        #expect(context.lastErrorMessage == nil)
        let second = #expect(throws: GEOSError.self) {
            try Geometry(wkt: "CIRCLE (0 0, 1)", context: context)
        }
        #expect(first?.message != second?.message)
    }

    /// Geometries keep their context alive, so GEOS_finish_r runs only after they are freed.
    @Test func geometryOutlivesTheCallersContextReference() throws {
        func makeSquare() throws -> PreparedGeometry {
            let context = try GEOSContext()
            return try Geometry(wkt: "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))", context: context)
                .prepared()
        }
        let square = try makeSquare()
        #expect(try square.contains(GeoPoint(latitude: 5, longitude: 5)))
    }

    /// One context per task is the supported way to use GEOS in parallel.
    @Test func oneContextPerTask() async throws {
        let results = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<4 {
                group.addTask {
                    let context = try GEOSContext()
                    let square = try Geometry(wkt: "POLYGON ((0 0, 10 0, 10 10, 0 10, 0 0))",
                                              context: context).prepared()
                    return try square.contains(GeoPoint(latitude: Double(index) + 0.5, longitude: 5))
                }
            }
            return try await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(results == [true, true, true, true])
    }
}
