@testable import GeoEnrichCLI
import H3Core
import Testing

/// The GeoJSON that `h3 cellsToMultiPolygon` writes: [lng, lat] positions, closed rings, the
/// shortest exact decimals without exponents or padding (scripts/ci/h3_diffcheck.py compares the
/// tool's lines with h3-py's `cells_to_geo` on fresh sets each run).
@Suite struct GeoJSONTextTests {
    @Test func noPolygons() {
        #expect(GeoJSONText.multiPolygon([]) == #"{"type":"MultiPolygon","coordinates":[]}"#)
    }

    @Test func ringsAreClosedAndPositionsLongitudeFirst() {
        let outer = [LatLng(latitude: 1, longitude: 2), LatLng(latitude: 3, longitude: 4), LatLng(latitude: 5, longitude: 6)]
        let hole = [LatLng(latitude: 1.5, longitude: 2.5), LatLng(latitude: 2.5, longitude: 2.5), LatLng(latitude: 2, longitude: 3)]
        let text = GeoJSONText.multiPolygon([GeoPolygon(outer: outer, holes: [hole]), GeoPolygon(outer: outer)])
        #expect(text == #"{"type":"MultiPolygon","coordinates":[[[[2.0,1.0],[4.0,3.0],[6.0,5.0],[2.0,1.0]],"#
                + #"[[2.5,1.5],[2.5,2.5],[3.0,2.0],[2.5,1.5]]],[[[2.0,1.0],[4.0,3.0],[6.0,5.0],[2.0,1.0]]]]}"#)
    }

    /// Numbers read back as the same doubles: the shortest decimal, positional (JSON allows
    /// exponents, but the other tools write none), the sign of a zero kept.
    @Test func numbersAreExact() {
        let values = [-122.03773496427027, 37.42012867767779, 1e-7, -0.0, 90.0, .leastNonzeroMagnitude, 179.99999999999997]
        for v in values {
            let text = GeoJSONText.position(LatLng(latitude: v, longitude: 0))
            let latitude = text.dropFirst().dropLast().split(separator: ",")[1]
            #expect(Double(latitude)?.bitPattern == v.bitPattern, "\(v) → \(text)")
            #expect(!latitude.contains("e"), "\(text)")
        }
        #expect(GeoJSONText.position(LatLng(latitude: 1e-7, longitude: -0.0)) == "[-0.0,0.0000001]")
    }
}
