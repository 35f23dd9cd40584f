#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The seed of a randomised test: `GEO_ENRICH_TEST_SEED` from the environment when it is set
/// (decimal, or hexadecimal after `0x`), else a fresh one, so that every run explores new cases
/// and any failure can be replayed. Printed, with the test's name; put it in failure messages too.
///
/// - Parameter test: the test's name, for the printed line.
/// - Returns: the seed for a ``SplitMix64``.
public func testSeed(_ test: String) -> UInt64 {
    var seed = UInt64.random(in: .min ... .max)
    if let text = getenv("GEO_ENRICH_TEST_SEED").map({ String(cString: $0) }) {
        let parsed = text.hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let parsed else { fatalError("GEO_ENRICH_TEST_SEED=\(text) is not a 64-bit unsigned integer") }
        seed = parsed
    }
    print("\(test): seed 0x\(String(seed, radix: 16)) (replay with GEO_ENRICH_TEST_SEED=0x\(String(seed, radix: 16)))")
    return seed
}

extension SplitMix64 {
    /// A uniform double in `lo..<hi` from the top 53 bits of the next value (the same on every
    /// platform, unlike `Double.random(in:using:)`, whose algorithm the standard library may change).
    public mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * Double(next() >> 11) / Double(UInt64(1) << 53)
    }
}
