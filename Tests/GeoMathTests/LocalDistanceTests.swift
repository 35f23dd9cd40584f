import GeoBridge
import GeoMath
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@Suite("LocalDistance against PROJ")
struct LocalDistanceTests {
    static func geodesic(_ lat1: Double, _ lng1: Double, _ lat2: Double, _ lng2: Double) -> Double {
        Geodesic.wgs84.distance(from: GeoPoint(latitude: lat1, longitude: lng1), to: GeoPoint(latitude: lat2, longitude: lng2))
    }

    /// A random pair: the first point anywhere from −85° to 85°, the second `metres` away
    /// (roughly: a local offset, not a geodesic) at a random bearing, longitudes wrapped.
    static func pair(_ rng: inout SplitMix64, metres: Double) -> (Double, Double, Double, Double) {
        let lat = rng.uniform(-85, 85), lng = rng.uniform(-180, 180)
        let bearing = rng.uniform(0, 2 * .pi)
        let lat2 = lat + metres / 111_000 * cos(bearing)
        var lng2 = lng + metres / (111_000 * cos(lat * .pi / 180)) * sin(bearing)
        if lng2 > 180 { lng2 -= 360 } else if lng2 < -180 { lng2 += 360 }
        return (lat, lng, lat2, lng2)
    }

    @Test("within its error bound on random pairs from −85° to 85°, all longitudes, 1 m to 20 km")
    func boundHoldsFromMinus85To85() {
        let seed = testSeed("LocalDistanceTests.boundHoldsFromMinus85To85")
        var rng = SplitMix64(seed: seed)
        var worstRatio = 0.0, worstAt = ""
        var failures = 0
        for i in 0..<300_000 {
            // a third within 10 m of the distance filter's 100 m, a third spread over the postal
            // search's range (1 m to its default limit of 20 km, log-uniform), a third near 20 km
            let metres = switch i % 3 {
            case 0: rng.uniform(90, 110)
            case 1: pow(10, rng.uniform(0, 4.301))
            default: rng.uniform(15_000, 20_000)
            }
            let (lat, lng, lat2, lng2) = Self.pair(&rng, metres: metres)
            let exact = Self.geodesic(lat, lng, lat2, lng2)
            // both forms, each with the bound its callers use: the plain formula with the first
            // point's latitude (PostalIndexTests' scan), the point form with its |tan φ| (the
            // postal search and the distance filter)
            let plain = LocalDistance.metres(lat1: lat, lng1: lng, lat2: lat2, lng2: lng2)
            let plainBound = LocalDistance.errorBound(distance: plain, latitudeRadians: lat * .pi / 180)
            let point = LocalDistance.Point(latitude: lat, longitude: lng)
            let fromPoint = LocalDistance.metres(from: point, lat2: lat2, lng2: lng2)
            let pointBound = LocalDistance.errorBound(distance: fromPoint, absTan: point.absTanLatitude)
            // the bound at the second point's latitude holds too (callers may take either end)
            let otherEnd = LocalDistance.Point(latitude: lat2, longitude: lng2)
            let otherBound = LocalDistance.errorBound(distance: fromPoint, absTan: otherEnd.absTanLatitude)
            let ok = abs(plain - exact) <= plainBound && abs(fromPoint - exact) <= pointBound
                && abs(fromPoint - exact) <= otherBound
            if !ok {
                failures += 1
                if failures <= 20 {
                    Issue.record("""
                        \(lat),\(lng) → \(lat2),\(lng2): PROJ \(exact), plain \(plain) ± \(plainBound), \
                        from point \(fromPoint) ± \(pointBound) (other end ± \(otherBound)) \
                        (seed 0x\(String(seed, radix: 16)), GEO_ENRICH_TEST_SEED replays it)
                        """)
                }
            }
            // the measured constant: |error| / (d³/a² · (1 + tan² φ)), where float noise is negligible
            if exact > 1_000 {
                let t = tan(lat * .pi / 180)
                let ratio = abs(fromPoint - exact) / (exact * exact * exact / (LocalDistance.a * LocalDistance.a) * (1 + t * t))
                if ratio > worstRatio { worstRatio = ratio; worstAt = "\(lat),\(lng) → \(lat2),\(lng2), \(exact) m" }
            }
        }
        print("LocalDistance: largest |error| · a² / (d³ (1 + tan² φ)) = \(worstRatio) at \(worstAt)")
        #expect(failures == 0, "seed 0x\(String(seed, radix: 16))")
    }

    @Test("largestBoundPerCubicMetre covers the bound everywhere up to 85°")
    func largestBound() {
        for lat in stride(from: -85.0, through: 85.0, by: 0.25) {
            let point = LocalDistance.Point(latitude: lat, longitude: 0)
            for d in [1.0, 100, 1_000, 5_000, 20_000] {
                #expect(LocalDistance.errorBound(distance: d, absTan: point.absTanLatitude)
                        <= LocalDistance.largestBoundPerCubicMetre * d * d * d + 1e-6, "\(lat)° \(d) m")
            }
        }
        // and is not loose by much at 85°
        let at85 = LocalDistance.Point(latitude: 85, longitude: 0)
        #expect(LocalDistance.errorBound(distance: 1_000, absTan: at85.absTanLatitude) - 1e-6
                > 0.97 * LocalDistance.largestBoundPerCubicMetre * 1e9)
    }

    /// Digests of the bit patterns of everything LocalDistance and DegreeTrigonometry computed
    /// for a fixed seed, taken when they lived in GeoLookup and H3Core (and EnrichEngine kept a
    /// copy of the near formula, proven bit for bit equal to these): moving them into GeoMath,
    /// public and inlinable, changed no result.
    @Test("the same bits as before the move into GeoMath")
    func bitIdenticalWithTheOriginals() {
        var rng = SplitMix64(seed: 0x6E0_3A7)
        func uniform(_ lo: Double, _ hi: Double) -> Double { lo + (hi - lo) * Double(rng.next() >> 11) / Double(1 << 53) }
        var hMetres: UInt64 = 0xcbf2_9ce4_8422_2325, hBound: UInt64 = 0xcbf2_9ce4_8422_2325, hTrig: UInt64 = 0xcbf2_9ce4_8422_2325
        func mix(_ h: inout UInt64, _ x: Double) { h = (h ^ x.bitPattern) &* 0x100_0000_01b3 }
        for _ in 0..<200_000 {
            let lat = uniform(-85, 85), lng = uniform(-180, 180)
            let scale = pow(10, uniform(0, 4.3)) / 111_000
            let lat2 = lat + uniform(-1, 1) * scale
            var lng2 = lng + uniform(-1, 1) * scale / max(cos(lat * .pi / 180), 0.05)
            if lng2 > 180 { lng2 -= 360 } else if lng2 < -180 { lng2 += 360 }
            let p = LocalDistance.Point(latitude: lat, longitude: lng)
            mix(&hTrig, p.sinLatitude); mix(&hTrig, p.cosLatitude); mix(&hTrig, p.absTanLatitude); mix(&hTrig, p.latitudeRadians)
            let a = LocalDistance.metres(lat1: lat, lng1: lng, lat2: lat2, lng2: lng2)
            let b = LocalDistance.metres(from: p, lat2: lat2, lng2: lng2)
            mix(&hMetres, a); mix(&hMetres, b)
            mix(&hBound, LocalDistance.errorBound(distance: b, absTan: p.absTanLatitude))
            mix(&hBound, LocalDistance.errorBound(distance: a, latitudeRadians: lat * .pi / 180))
            let angle = uniform(-200, 200)
            let (s, c) = DegreeTrigonometry.sineAndCosine(degrees: angle)
            mix(&hTrig, s); mix(&hTrig, c)
        }
        // measured at main 90627ca, before the move
        #expect(String(hMetres, radix: 16) == "59eb4cbfa63f3389")
        #expect(String(hBound, radix: 16) == "6e7c6879d5bb1320")
        #expect(String(hTrig, radix: 16) == "f7635974bbeb8c08")
    }
}
