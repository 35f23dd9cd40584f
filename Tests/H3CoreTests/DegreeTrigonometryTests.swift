import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import H3Core

struct DegreeTrigonometryTests {
    @Test("the table sine and cosine are within 2 ulp of 1 of libm's for latitudes, 4 all round the circle")
    func sineAndCosine() {
        var rng = SystemRandomNumberGenerator()
        // random angles, and the table's own quarter degrees and the halfway points between
        var angles = (0..<400_000).map { _ in Double.random(in: -180...180, using: &rng) }
        angles += (0...2880).map { Double($0 - 1440) * 0.125 }
        for angle in angles {
            let (s, c) = DegreeTrigonometry.sineAndCosine(degrees: angle)
            let r = angle * DegreeTrigonometry.degree
            // absolute: its users multiply by these, where 1e-15 is far below their bounds.
            // Past ±90° both sides round an argument near π (ulp 4.4e-16), so the two may
            // differ by that much more.
            let bound = (abs(angle) <= 90 ? 2 : 4) * Double.ulpOfOne
            #expect(abs(s - sin(r)) <= bound, "sin \(angle): \(s) vs \(sin(r))")
            #expect(abs(c - cos(r)) <= bound, "cos \(angle): \(c) vs \(cos(r))")
        }
    }
}
