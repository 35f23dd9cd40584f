import Foundation
import GeoBridge
import Testing

/// The geodesic against pyproj, bit for bit: distances and both azimuths.
///
/// The answers come from pyproj's `Geod(ellps="WGS84").inv` (PROJ's `geod_inverse`, the function
/// the peer's 100 m filter calls), written by `scripts/dev/gen_geodesic_reference.py`:
/// `Fixtures/geodesic_reference.txt` (seed 20261207, about 9,000 pairs: edge cases, then uniform,
/// ~100 m, nearly antipodal, equatorial, meridional, polar, sub-centimetre and GPS-rounded
/// pairs), and, when the test command sets `GEO_ENRICH_GEODESIC_REFERENCE`, a fresh file of
/// pairs from a new seed each run (the script prints it).
@Suite struct GeodesicExactnessTests {
    struct Pair {
        var lat1, lon1, lat2, lon2, distance, azi1, azi2: Double
    }

    static func pairs(in path: String) throws -> [Pair] {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var pairs: [Pair] = []
        for (n, line) in text.split(separator: "\n").enumerated() where !line.hasPrefix("#") {
            let v = line.split(separator: " ").compactMap { Double(String($0)) }
            guard v.count == 7 else {
                Issue.record("\(path):\(n + 1): expected 7 hexadecimal doubles, got '\(line)'")
                continue
            }
            pairs.append(Pair(lat1: v[0], lon1: v[1], lat2: v[2], lon2: v[3], distance: v[4], azi1: v[5], azi2: v[6]))
        }
        return pairs
    }

    /// Same bits, or both NaN.
    static func same(_ a: Double, _ b: Double) -> Bool { a.bitPattern == b.bitPattern || (a.isNaN && b.isNaN) }

    static func check(_ pairs: [Pair], _ source: String) {
        var mismatches = 0
        for p in pairs {
            let from = GeoPoint(latitude: p.lat1, longitude: p.lon1), to = GeoPoint(latitude: p.lat2, longitude: p.lon2)
            let solution = Geodesic.wgs84.inverse(from: from, to: to)
            let distance = Geodesic.wgs84.distance(from: from, to: to)
            if !(same(solution.distance, p.distance) && same(distance, p.distance)
                 && same(solution.initialAzimuth, p.azi1) && same(solution.finalAzimuth, p.azi2)) {
                mismatches += 1
                if mismatches <= 10 {
                    Issue.record("""
                        \(source): (\(p.lat1), \(p.lon1)) → (\(p.lat2), \(p.lon2)): ours \(solution.distance) m \
                        (distance alone \(distance)), \(solution.initialAzimuth)°, \(solution.finalAzimuth)°; \
                        pyproj \(p.distance) m, \(p.azi1)°, \(p.azi2)°
                        """)
                }
            }
        }
        #expect(mismatches == 0, "\(mismatches) of \(pairs.count) pairs differ from pyproj (\(source))")
        print("GeodesicExactnessTests: \(pairs.count) pairs of \(source), \(mismatches) differing from pyproj")
    }

    @Test("bit-exact with pyproj on the committed pairs (geodesic_reference.txt)")
    func committedPairs() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Fixtures/geodesic_reference.txt").path
        let pairs = try Self.pairs(in: path)
        #expect(pairs.count > 8_000)
        Self.check(pairs, "geodesic_reference.txt")
    }

    @Test("bit-exact with pyproj on a fresh seed's pairs (GEO_ENRICH_GEODESIC_REFERENCE, set by the test command)")
    func freshPairs() throws {
        guard let path = ProcessInfo.processInfo.environment["GEO_ENRICH_GEODESIC_REFERENCE"] else {
            print("GeodesicExactnessTests: GEO_ENRICH_GEODESIC_REFERENCE not set: the fresh pairs were skipped (scripts/test.sh sets it)")
            return
        }
        let pairs = try Self.pairs(in: path)
        #expect(!pairs.isEmpty)
        Self.check(pairs, path)
    }
}
