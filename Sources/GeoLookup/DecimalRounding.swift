/// Rounding of doubles to decimal places exactly as Python's `round(x, n)`: the decimal
/// nearest to the exact binary value, ties to even, read back as the nearest double.
///
/// Postal distances are rounded this way (`postal_distance_m` to 0.1 m, and to 1e-6 m to break
/// ties between codes); `(x * 10).rounded() / 10` differs from it when `x * 10` is inexact.
enum DecimalRounding {
    /// The integer k such that k / 10ⁿ is `x` rounded to n places (half to even on the exact value).
    ///
    /// - Parameters:
    ///   - x: a finite value with |x| · 10ⁿ < 2⁵².
    ///   - scale: 10ⁿ, exactly representable (n ≤ 22).
    @inline(__always) static func scaledInteger(_ x: Double, scale: Double) -> Int64 {
        // the exact product x·scale is hi + err (err recovered with a fused multiply-add)
        let hi = x * scale
        let err = fusedError(x, scale, hi)
        // floor by truncation for the distances (non-negative): no call into libm
        let floor = hi >= 0 ? Double(Int64(hi)) : hi.rounded(.down)
        let frac = hi - floor  // exact for |hi| < 2⁵²
        let k = Int64(floor)
        // frac has no bits finer than ulp(hi) > |err|, so err only matters at a tie or at 0
        // (where the value stays nearest to `floor` either way)
        if frac > 0.5 || (frac == 0.5 && err > 0) { return k + 1 }
        if frac == 0.5 && err == 0 { return k & 1 == 1 ? k + 1 : k }
        return k
    }

    /// `a·b − p` exactly, for `p` the rounded product `a·b`.
    @inline(__always) static func fusedError(_ a: Double, _ b: Double, _ p: Double) -> Double {
        (-p).addingProduct(a, b)
    }

    /// `round(x, 1)` as Python computes it.
    @inline(__always) static func tenths(_ x: Double) -> Double { Double(scaledInteger(x, scale: 10)) / 10 }
}
