import GeoBridge
import Testing

/// What `GeoPoint`'s documentation promises of its two users: the labels reach PROJ and GEOS
/// in the right order, and an out-of-range latitude is not silently accepted.
@Suite struct GeoPointTests {
    @Test func latitudeAndLongitudeReachPROJInTheirOrder() {
        // a degree of latitude (about 110.6 km at the equator) is shorter than one of longitude
        // there (111.3 km): swapped labels would swap the two
        let origin = GeoPoint(latitude: 0, longitude: 0)
        let north = Geodesic.wgs84.distance(from: origin, to: GeoPoint(latitude: 1, longitude: 0))
        let east = Geodesic.wgs84.distance(from: origin, to: GeoPoint(latitude: 0, longitude: 1))
        #expect(abs(north - 110_574.3886) < 1e-3)
        #expect(abs(east - 111_319.4908) < 1e-3)
    }

    @Test func latitudeAndLongitudeReachGEOSAsYAndX() throws {
        let context = try GEOSContext()
        // a box 10° wide east-west and 1° tall north-south
        let box = try Geometry(exteriorRing: [GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 10),
                                              GeoPoint(latitude: 1, longitude: 10), GeoPoint(latitude: 1, longitude: 0)],
                               context: context).prepared()
        #expect(try box.contains(GeoPoint(latitude: 0.5, longitude: 5)))
        #expect(try !box.contains(GeoPoint(latitude: 5, longitude: 0.5)))
    }
}
