/// Sebastiano Vigna's SplitMix64: a tiny, fully deterministic generator, shared by every
/// benchmark target.
///
/// The benchmark inputs come from it rather than from `SystemRandomNumberGenerator`, so every
/// run on every machine measures the same points and sessions, and the Python anchors
/// (`anchors/h3py_anchor.py`, `anchors/lookup_points.py`) can rebuild them bit for bit (they
/// carry a line-for-line copy of this generator).
public struct SplitMix64: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// - Parameter seed: any value; equal seeds give equal sequences.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A double uniform in [0, 1): the top 53 bits of ``next()`` scaled by 2⁻⁵³.
    public mutating func nextUnit() -> Double {
        Double(next() >> 11) * 0x1p-53
    }
}
