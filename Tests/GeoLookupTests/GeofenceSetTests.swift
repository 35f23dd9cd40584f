#if canImport(Glibc)
import Glibc
#endif
import GeoBridge
import Testing

@testable import GeoLookup

/// `GeofenceSet` used alone: loading, the refusals of rule 11, and membership on the cases whose
/// answer is known by construction (edges and corners of a square, a hole, a circle's radius).
/// The differential check against shapely and pyproj on random fences is scripts/ci/geofence_check.py.
@Suite struct GeofenceSetTests {
    static let file = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"square","properties":{},"geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1],[0,0]],[[0.25,0.25],[0.5,0.25],[0.5,0.5],[0.25,0.5],[0.25,0.25]]]}},
        {"type":"Feature","id":7,"properties":{"radius_m":1000},"geometry":{"type":"Point","coordinates":[0.5,0.75]}},
        {"type":"Feature","properties":{"id":"é"},"geometry":{"type":"MultiPolygon","coordinates":[[[[0.5,0.5],[2,0.5],[2,2],[0.5,2],[0.5,0.5]]]]}}
        ]}
        """

    static func load(_ text: String) throws(GeofenceFileError) -> GeofenceSet {
        try GeofenceSet(json: Array(text.utf8), path: "test.geojson")
    }

    @Test func idsAreInUTF8OrderAndMembershipCoversTheBoundary() throws {
        let set = try Self.load(Self.file)
        #expect(set.fences.map(\.id) == ["7", "square", "é"])
        let locator = try set.makeLocator()
        func ids(_ lat: Double, _ lng: Double) -> [String] { locator.ids(containing: GeoPoint(latitude: lat, longitude: lng)) }
        #expect(ids(0.75, 0.5) == ["7", "square", "é"])      // the circle's centre, on the multipolygon's edge
        #expect(ids(0, 0) == ["square"])                      // a corner
        #expect(ids(1, 0.3) == ["square"])                    // the top edge
        #expect(ids(0.3, 0.3) == [])                          // in the hole
        #expect(ids(0.25, 0.3) == ["square"])                 // on the hole's edge: the boundary is inside
        #expect(ids(1.5, 1.5) == ["é"])
        #expect(ids(-0.000001, 0.5) == [])
        #expect(ids(.nan, 0) == [] && ids(91, 0) == [])
    }

    @Test func aCircleHoldsWhatIsWithinItsRadius() throws {
        let set = try Self.load(Self.file)
        let locator = try set.makeLocator()
        let center = GeoPoint(latitude: 0.75, longitude: 0.5)
        for bearing in stride(from: 0.0, to: 360, by: 15) {
            for distance in [999.0, 999.999, 1000.001, 1001] {
                let p = Self.point(from: center, metres: distance, bearing: bearing)
                let exact = Geodesic.wgs84.distance(from: center, to: p)
                #expect(locator.ids(containing: p).contains("7") == (exact <= 1000), "\(distance) m at \(bearing)°")
            }
        }
    }

    /// A point `metres` from `p` on `bearing` (a local plane step, then measured exactly above).
    static func point(from p: GeoPoint, metres: Double, bearing: Double) -> GeoPoint {
        let b = bearing * .pi / 180
        return GeoPoint(latitude: p.latitude + metres * cos(b) / 110_574,
                        longitude: p.longitude + metres * sin(b) / (111_320 * cos(p.latitude * .pi / 180)))
    }

    @Test(arguments: [
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"x","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,1],[1,0],[0,1],[0,0]]]}}]}"#, "feature \"x\": invalid Polygon: Self-intersection"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"c","geometry":{"type":"Point","coordinates":[0,0]}}]}"#, "feature \"c\": a Point fence needs properties.radius_m"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"c","properties":{"radius_m":-1},"geometry":{"type":"Point","coordinates":[0,0]}}]}"#, "radius_m must be a finite number > 0"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","geometry":{"type":"Point","coordinates":[0,0]},"properties":{"radius_m":1}}]}"#, "feature 0: has no id"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"l","geometry":{"type":"LineString","coordinates":[[0,0],[1,1]]}}]}"#, "\"LineString\" geometry is not a fence"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"u","geometry":{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}}]}"#, "ring 0 is not closed"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"r","geometry":{"type":"Polygon","coordinates":[[[0,0],[0,95],[1,1],[0,0]]]}}]}"#, "coordinate out of range"),
        (#"{"type":"FeatureCollection","features":[{"type":"Feature","id":"d","properties":{"radius_m":1},"geometry":{"type":"Point","coordinates":[0,0]}},{"type":"Feature","id":"d","properties":{"radius_m":1},"geometry":{"type":"Point","coordinates":[0,0]}}]}"#, "feature \"d\": duplicate id"),
        ("[1, 2", "not JSON"),
    ])
    func brokenFilesAreRefusedNamingTheFeature(text: String, reason: String) {
        #expect {
            _ = try Self.load(text)
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func oneFeatureALineIsReadToo() throws {
        let lines = """
            {"type":"Feature","id":"a","properties":{"radius_m":10},"geometry":{"type":"Point","coordinates":[10,10]}}

            {"type":"Feature","id":"b","properties":{"radius_m":10},"geometry":{"type":"Point","coordinates":[10,10]}}
            """
        let set = try Self.load(lines)
        #expect(try set.makeLocator().ids(containing: GeoPoint(latitude: 10, longitude: 10)) == ["a", "b"])
        // a bad line is named by its number
        #expect { _ = try Self.load(lines + "\n{oops") } throws: { "\($0)".contains("(line 4)") }
    }
}
