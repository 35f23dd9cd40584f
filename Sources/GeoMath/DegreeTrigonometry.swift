#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Sine and cosine of an angle given in degrees, from a table, at about a tenth of libm's cost.
///
/// Not a replacement for libm where bits matter: the results are within 2 ulp of 1 of libm's
/// (absolute). Its users either carry an error bound that covers far more (``LocalDistance``, and
/// through it GeoLookup's postal search and EnrichEngine's distance filter) or check that the
/// answer cannot depend on such an error and fall back to libm when it could (H3Core's
/// `AlgebraicProjection`).
///
/// Public and `@inlinable` so that callers in other modules get the few multiply-adds inlined
/// and specialised: a call, and the spills around it, cost as much as the arithmetic.
public enum DegreeTrigonometry {
    /// π/180. (Computed, not stored: a stored global is read through an accessor that another
    /// module cannot fold; this folds to the constant.)
    @inlinable public static var degree: Double { Double.pi / 180 }

    /// Sine and cosine of every quarter degree from −180° to 180° (libm's, computed once and
    /// never written after, so shared freely): 1,441 pairs, 23 KiB.
    @usableFromInline nonisolated(unsafe) static let quarterDegrees: UnsafePointer<Double> = {
        let table = UnsafeMutablePointer<Double>.allocate(capacity: 2 * 1441)
        for k in 0...1440 {
            let angle = Double(k - 720) * 0.25 * degree
            table[2 * k] = sin(angle)
            table[2 * k + 1] = cos(angle)
        }
        return UnsafePointer(table)
    }()

    /// sin and cos of `degrees`: the nearest quarter degree's from the table, turned by the
    /// remainder r (|r| ≤ 0.0022 rad) with the Taylor series of sin r and cos r, whose first
    /// omitted terms are below 1e-22.
    ///
    /// - Parameter degrees: the angle; −180…180 is read from the table, other angles go to libm.
    /// - Returns: its sine and cosine, within 2 ulp of 1 of libm's (4 ulp past ±90°).
    /// - Complexity: O(1); two multiply-add chains and one table read.
    @inlinable @inline(__always)
    public static func sineAndCosine(degrees: Double) -> (sin: Double, cos: Double) {
        guard abs(degrees) <= 180 else { return (sin(degrees * degree), cos(degrees * degree)) }
        let k = Int(degrees * 4 + (degrees >= 0 ? 0.5 : -0.5))
        let r = (degrees - Double(k) * 0.25) * degree
        let r2 = r * r
        let sr = r * (1 - r2 * (1.0 / 6 - r2 * (1.0 / 120)))
        let cr = 1 - r2 * (0.5 - r2 * (1.0 / 24 - r2 * (1.0 / 720)))
        let entry = quarterDegrees + 2 * (k + 720)
        let sa = entry[0], ca = entry[1]
        return (sa * cr + ca * sr, ca * cr - sa * sr)
    }
}
