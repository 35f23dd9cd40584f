import GeoBridge
import GeoLookup
import TestSupport
import Testing

@testable import EnrichEngine

@Suite("FixDistance: the distance filter's decision equals PROJ's")
struct FixDistanceTests {
    @Test("random pairs near the threshold and far from it, from the equator to 89°")
    func decisions() {
        var rng = SplitMix64(seed: 2024)
        func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(rng.next() >> 11) / Double(1 << 53) }
        var near = 0
        for i in 0..<40_000 {
            let lat = uniform(-89, 89), lng = uniform(-180, 180)
            // distances clustered within a metre of 100 m, and spread out to 10 km
            let metres = i % 2 == 0 ? uniform(99, 101) : pow(10, uniform(0, 4))
            let bearing = uniform(0, 2 * .pi)
            let dLat = metres / 111_000 * cosine(bearing)
            let dLng = metres / (111_000 * max(cosine(lat * .pi / 180), 0.02)) * sine(bearing)
            var lng2 = lng + dLng
            if lng2 > 180 { lng2 -= 360 } else if lng2 < -180 { lng2 += 360 }
            let lat2 = min(max(lat + dLat, -90), 90)
            let exact = Geodesic.wgs84.distance(from: GeoPoint(latitude: lat, longitude: lng), to: GeoPoint(latitude: lat2, longitude: lng2))
            if abs(exact - 100) < 1 { near += 1 }
            let p = LocalDistance.Point(latitude: lat, longitude: lng)
            let got = FixDistance.isAtLeast(100, from: p, latitude: lat2, longitude: lng2)
            #expect(got == (exact >= 100), "\(lat),\(lng) → \(lat2),\(lng2): PROJ \(exact) m")
        }
        #expect(near > 10_000)
    }
}

func pow(_ b: Double, _ e: Double) -> Double {
    #if canImport(Glibc)
    Glibc.pow(b, e)
    #else
    Darwin.pow(b, e)
    #endif
}
#if canImport(Glibc)
import Glibc
#else
import Darwin
#endif
