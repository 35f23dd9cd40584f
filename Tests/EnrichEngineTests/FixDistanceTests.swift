import GeoBridge
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
            let p = FixDistance.Origin(latitude: lat, longitude: lng)
            let got = FixDistance.isAtLeast(100, from: p, latitude: lat2, longitude: lng2)
            #expect(got == (exact >= 100), "\(lat),\(lng) → \(lat2),\(lng2): PROJ \(exact) m")
        }
        #expect(near > 10_000)
    }

    @Test("the bracket decides as the plane formula does, at thresholds from 1 m to 5 km",
          arguments: [1.0, 5.0, 100.0, 1_000.0, 5_000.0])
    func bracket(threshold: Double) {
        var rng = SplitMix64(seed: 2026 ^ threshold.bitPattern)
        func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(rng.next() >> 11) / Double(1 << 53) }
        var decided = 0
        for i in 0..<100_000 {
            let lat = uniform(-85, 85), lng = uniform(-180, 180)
            // a third within 2 % of the threshold, where the bracket's edges are; the rest spread out
            let metres = i % 3 == 0 ? threshold * uniform(0.98, 1.02) : threshold * pow(10, uniform(-2, 1))
            let bearing = uniform(0, 2 * .pi)
            let lat2 = min(max(lat + metres / 111_000 * cosine(bearing), -85), 85)
            var lng2 = lng + metres / (111_000 * cosine(lat * .pi / 180)) * sine(bearing)
            if lng2 > 180 { lng2 -= 360 } else if lng2 < -180 { lng2 += 360 }
            guard abs(lat2 - lat) < 0.05, abs(lng2 - lng) < 0.6 else { continue }
            let origin = FixDistance.Origin(latitude: lat, longitude: lng)
            guard let fast = FixDistance.bracket(threshold, from: origin, latitude: lat2, longitude: lng2) else { continue }
            decided += 1
            let formula = FixDistance.byPlaneFormula(threshold, from: origin, latitude: lat2, longitude: lng2)
            #expect(fast == formula, "\(lat),\(lng) → \(lat2),\(lng2) at \(threshold) m")
        }
        #expect(decided > 60_000)  // it decides most pairs: all but those near the threshold
    }

    @Test("roughCosine is within its stated error of cos from −π/2 to π/2")
    func roughCosine() {
        var worst = 0.0
        for i in 0...1_000_000 {
            let x = -Double.pi / 2 + Double.pi * Double(i) / 1_000_000
            worst = max(worst, abs(FixDistance.roughCosine(x) - cosine(x)))
        }
        #expect(worst <= FixDistance.roughCosineError)
        #expect(worst > FixDistance.roughCosineError / 10)  // the stated error is not loose by much
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
