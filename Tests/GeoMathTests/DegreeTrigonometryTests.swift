import GeoMath
import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

struct DegreeTrigonometryTests {
    @Test("the table sine and cosine are within 2 ulp of 1 of libm's for latitudes, 4 all round the circle")
    func sineAndCosine() {
        let seed = testSeed("DegreeTrigonometryTests.sineAndCosine")
        var rng = SplitMix64(seed: seed)
        // random angles, and the table's own quarter degrees and the halfway points between
        var angles = (0..<400_000).map { _ in rng.uniform(-180, 180) }
        angles += (0...2880).map { Double($0 - 1440) * 0.125 }
        for angle in angles {
            let (s, c) = DegreeTrigonometry.sineAndCosine(degrees: angle)
            let r = angle * DegreeTrigonometry.degree
            // absolute: its users multiply by these, where 1e-15 is far below their bounds.
            // Past ±90° both sides round an argument near π (ulp 4.4e-16), so the two may
            // differ by that much more.
            let bound = (abs(angle) <= 90 ? 2 : 4) * Double.ulpOfOne
            #expect(abs(s - sin(r)) <= bound, "sin \(angle): \(s) vs \(sin(r)) (seed 0x\(String(seed, radix: 16)))")
            #expect(abs(c - cos(r)) <= bound, "cos \(angle): \(c) vs \(cos(r)) (seed 0x\(String(seed, radix: 16)))")
        }
    }

    @Test("angles beyond ±180° go to libm")
    func outsideTheTable() {
        for angle in [180.25, -181.0, 270.0, 720.5, -1000.0] {
            let (s, c) = DegreeTrigonometry.sineAndCosine(degrees: angle)
            #expect(s == sin(angle * DegreeTrigonometry.degree) && c == cos(angle * DegreeTrigonometry.degree), "\(angle)")
        }
    }
}
