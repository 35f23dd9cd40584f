#if canImport(Glibc)
import Glibc
#endif
import GeoBridge
import TestSupport
import Testing

@testable import GeoLookup

/// `SimpleRing` against GEOS's `isValidDetail`: a ring it passes is one GEOS finds valid, on
/// random rings of every kind (stars, which are simple; shuffled points, mostly not; rings
/// through grid points, with touches and collinear runs), and it passes most simple ones.
@Suite struct SimpleRingTests {
    @Test func aRingItPassesIsValidForGEOS() throws {
        let seed = testSeed("SimpleRingTests.aRingItPassesIsValidForGEOS")
        var rng = SplitMix64(seed: seed)
        let context = try GEOSContext()
        var passed = 0, stars = 0, starsPassed = 0, unsound = 0, valid = 0
        for trial in 0..<6_000 {
            let n = 3 + Int(rng.next() % 20)
            var ring: [GeoPoint] = []
            let kind = trial % 3
            for k in 0..<n {
                switch kind {
                case 0:  // a star: corners at increasing angles
                    let a = 2 * Double.pi * (Double(k) + rng.uniform(0.05, 0.95)) / Double(n), r = rng.uniform(0.2, 1)
                    ring.append(GeoPoint(latitude: 45 + r * sin(a) * 0.01, longitude: 7 + r * cos(a) * 0.01))
                case 1:  // anywhere in a box
                    ring.append(GeoPoint(latitude: rng.uniform(0, 1), longitude: rng.uniform(0, 1)))
                default:  // on a 4 x 4 grid: touches, folds and collinear runs
                    ring.append(GeoPoint(latitude: Double(rng.next() % 4), longitude: Double(rng.next() % 4)))
                }
            }
            ring.append(ring[0])
            let sure = SimpleRing.isSurelyValid([[ring]])
            let problem: (reason: String, location: GeoPoint?)?
            do { problem = try Geometry(polygons: [[ring]], context: context).validityProblem() } catch { continue }
            if problem == nil { valid += 1 }
            if sure {
                passed += 1
                if problem != nil { unsound += 1; Issue.record("seed \(seed) trial \(trial): passed, GEOS says \(problem!.reason): \(ring)") }
            }
            if kind == 0 { stars += 1; if sure { starsPassed += 1 } }
        }
        #expect(unsound == 0, "seed \(seed)")
        #expect(starsPassed == stars, "every star is proven simple: \(starsPassed) of \(stars) (seed \(seed))")
        #expect(passed > stars && valid >= passed, "\(passed) passed, \(valid) valid for GEOS (seed \(seed))")
        // the grid's touches and folds and the rings GEOS refuses are left to GEOS
        #expect(!SimpleRing.isSurelyValid([[[GeoPoint(latitude: 0, longitude: 0), GeoPoint(latitude: 0, longitude: 1),
                                             GeoPoint(latitude: 1, longitude: 0), GeoPoint(latitude: 1, longitude: 1),
                                             GeoPoint(latitude: 0, longitude: 0)]]]))
    }
}
