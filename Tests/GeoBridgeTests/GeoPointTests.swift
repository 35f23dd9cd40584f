import GeoBridge
import Testing

@Suite struct GeoPointTests {
    @Test func keepsLabelledDegrees() {
        let point = GeoPoint(latitude: -33.8688, longitude: 151.2093)
        #expect(point.latitude == -33.8688)
        #expect(point.longitude == 151.2093)
    }

    @Test func equalityComparesBothCoordinates() {
        #expect(GeoPoint(latitude: 1, longitude: 2) == GeoPoint(latitude: 1, longitude: 2))
        #expect(GeoPoint(latitude: 1, longitude: 2) != GeoPoint(latitude: 2, longitude: 1))
    }
}
