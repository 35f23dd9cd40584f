import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import H3Core

/// The two shortcuts under every cell-to-coordinates function: they must give H3's own values
/// bit for bit (the golden vectors and the CI's differential check then hold them to h3-py).
struct CellGeometryKernelTests {
    @Test("sinCos gives the C library's sin and cos bit for bit, over the angles H3's geometry takes")
    func sinCosIsSinAndCos() {
        let seed = testSeed("CellGeometryKernelTests.sinCosIsSinAndCos")
        var rng = SplitMix64(seed: seed)
        // glibc's sincos reduces the argument by range; cover each range and the boundaries of
        // its fast paths (|x| < 2⁻²⁷, 0.855469, 2.426265, 105414350), as well as every angle of
        // H3's geometry (within ±4π)
        let ranges: [ClosedRange<Double>] = [
            -1e-9...1e-9, -0.9...0.9, 0.85...0.86, 2.42...2.43, -4 * .pi...4 * .pi, -2e8...2e8,
        ]
        var mismatches = 0
        for range in ranges {
            for _ in 0..<200_000 {
                let x = Double.random(in: range, using: &rng)
                let (s, c) = sinCos(x)
                if s.bitPattern != sin(x).bitPattern || c.bitPattern != cos(x).bitPattern { mismatches += 1 }
            }
        }
        #expect(mismatches == 0, "seed 0x\(String(seed, radix: 16))")
    }

    @Test("the tabled digit walk gives the coordinates of H3's walk one resolution at a time")
    func digitWalkIsTheStepByStepWalk() {
        let seed = testSeed("CellGeometryKernelTests.digitWalkIsTheStepByStepWalk")
        var rng = SplitMix64(seed: seed)
        for _ in 0..<200_000 {
            let res = Int.random(in: 0...15, using: &rng)
            // any digits 0...7 (7 moves nowhere, as H3's _neighbor) and any home coordinates
            var h: UInt64 = 0
            for r in 1...15 {
                h = H3IndexBits.setDigit(h, r, Direction(unchecked: UInt8.random(in: 0...7, using: &rng)))
            }
            let home = CoordIJK(Int.random(in: 0...2, using: &rng), Int.random(in: 0...2, using: &rng),
                                Int.random(in: 0...2, using: &rng)).normalized
            var expected = home
            for r in stride(from: 1, through: res, by: 1) {
                if FaceIJK.isClassIII(r) { expected.downAp7() } else { expected.downAp7r() }
                expected.move(H3IndexBits.digit(h, r))
            }
            let walked = DigitWalk.center(of: h, resolution: res, home: home)
            #expect(walked == expected, "seed 0x\(String(seed, radix: 16)), h \(String(h, radix: 16)), res \(res)")
            if walked != expected { return }
        }
    }
}
