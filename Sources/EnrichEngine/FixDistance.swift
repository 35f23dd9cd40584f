import GeoBridge
import GeoMath

/// The distance filter's question, "is this fix at least d metres from the last accepted
/// one?", answered on the WGS84 ellipsoid without the exact geodesic for almost every pair.
///
/// Far pairs are decided by lower bounds (a degree of latitude is at least 110.5 km; below
/// 85.2° a degree of longitude at least 9.2 km); near pairs by a bracket of the mid-latitude
/// plane distance that needs no division, square root or trigonometric call, or, within about
/// 1 % of the threshold, by the plane formula itself and its error bound (about 1e-6 m at
/// 100 m); only a pair within that bound of the threshold, or near a pole, goes to the exact
/// geodesic (`Geodesic`, bit-exact with PROJ's `geod_inverse`).
///
/// The plane formula and its bound are GeoMath's `LocalDistance.metres(from:lat2:lng2:)` and
/// `LocalDistance.errorBound(distance:absTan:)` (see there for how the bound was measured),
/// public and `@inlinable` so that they inline here: the filter runs on every fix. (They used to
/// be `package` API of GeoLookup, which the compiler did not inline into this module even when
/// marked `@inlinable`, so this file carried a copy of them, operation for operation.)
enum FixDistance {
    /// WGS84's semi-major axis (m) and one degree in radians: GeoMath's, folded to constants.
    @inline(__always) static var a: Double { LocalDistance.a }
    @inline(__always) static var degree: Double { LocalDistance.degree }

    /// The fix that others are measured from: its position and ``roughCosine(_:)`` of its
    /// latitude, computed once when it is accepted.
    struct Origin {
        let latitude: Double, longitude: Double
        /// cos φ within ``roughCosineError``.
        let roughCosLatitude: Double

        init(latitude: Double, longitude: Double) {
            self.init(latitude: latitude, longitude: longitude,
                      roughCosLatitude: FixDistance.roughCosine(latitude * FixDistance.degree))
        }

        @inline(__always)
        init(latitude: Double, longitude: Double, roughCosLatitude: Double) {
            self.latitude = latitude
            self.longitude = longitude
            self.roughCosLatitude = roughCosLatitude
        }
    }

    /// cos x for |x| ≤ π/2, by its Taylor polynomial to x¹⁰: within ``roughCosineError`` (the
    /// series alternates with terms falling in size there, so the error is below the first term
    /// left out, x¹²/12! ≤ 4.7e-7), in a dozen multiplications and additions where the library's
    /// `cos` and `sin` cost a few times that. The bracket needs no more of the origin's latitude;
    /// the plane formula, for the rare pairs the bracket leaves, takes the library's values.
    @inline(__always)
    static func roughCosine(_ x: Double) -> Double {
        let y = x * x
        return 1 + y * (-1.0 / 2 + y * (1.0 / 24 + y * (-1.0 / 720 + y * (1.0 / 40_320 - y * (1.0 / 3_628_800)))))
    }

    /// A bound on |``roughCosine(_:)`` − cos| for |x| ≤ π/2.
    static let roughCosineError = 5e-7

    /// Whether `(latitude, longitude)` lies at least `threshold` metres from `from`.
    ///
    /// - Complexity: O(1); for all but pairs within about 1 % of the threshold, no division,
    ///   square root or library call (those within it take a sine and a cosine too).
    @inline(__always)
    static func isAtLeast(_ threshold: Double, from: Origin, latitude: Double, longitude: Double) -> Bool {
        guard abs(from.latitude) <= 85, abs(latitude) <= 85, threshold <= 5_000 else {
            return exact(from, latitude, longitude) >= threshold
        }
        let dPhi = abs(latitude - from.latitude)
        // ≥ 0.05° of latitude is ≥ 5.5 km
        if dPhi >= 0.05 { return true }
        var dLng = abs(longitude - from.longitude)
        if dLng > 180 { dLng = 360 - dLng }
        // below 85.05°, 0.6° of longitude is ≥ 5.8 km along any path within the band
        if dLng >= 0.6 { return true }
        if threshold >= minimumBracketedThreshold, let decided = bracket(threshold, from: from, latitude: latitude, longitude: longitude) {
            return decided
        }
        return byPlaneFormula(threshold, from: from, latitude: latitude, longitude: longitude)
    }

    /// The smallest threshold ``bracket(_:from:latitude:longitude:)`` decides for, which keeps
    /// its `threshold − margin` positive (it compares squares).
    static let minimumBracketedThreshold = 1.0

    /// The radii of curvature of WGS84 lie in [a(1 − e²), a/√(1 − e²)] (the meridional M) and
    /// [a, a/√(1 − e²)] (the prime vertical N): 6,335,439.33 m to 6,399,593.63 m, here rounded
    /// outwards to the metre. Literals, not expressions: a square root in a `static let` makes it
    /// a lazily initialised global, checked on every read.
    static let smallestRadius = 6_335_439.0
    static let largestRadius = 6_399_594.0

    /// `LocalDistance.errorBound(distance:absTan:)` at 85° (its largest over the band this
    /// filter measures with the formula), less its constant 1e-6 m, per cubic metre of distance:
    /// GeoMath's ``LocalDistance/largestBoundPerCubicMetre``.
    @inline(__always) static var largestBoundPerCubicMetre: Double { LocalDistance.largestBoundPerCubicMetre }

    /// The decision of ``byPlaneFormula(_:from:latitude:longitude:)``, when a bracket of the
    /// plane distance settles it; `nil` when the pair is within about 1 % of the threshold.
    ///
    /// The plane distance is d = √((N·cos φm·Δλ)² + (M·2δ)²) (see `LocalDistance.metres(from:lat2:lng2:)`).
    /// Bounding N and M by the extreme radii, and cos φm by cos φ₁ ± |δ| (|d cos/dφ| ≤ 1; the
    /// formula's Taylor terms and rounding add under 1e-15) with cos φ₁ known to within
    /// ``roughCosineError``, gives L ≤ d ≤ U with no division or square root, U/L ≤ 1.011. Then, with b(d) the formula's error bound:
    /// - U < threshold − 1 mm − b̂(threshold), b̂ the bound at 85° (its largest): the formula
    ///   finds d + b(d) < threshold (b̂ is 2e-6 m at 100 m, 0.09 m at 5 km), so it rejects;
    /// - L ≥ threshold + 1 m: d − b(d) grows with d below 700 km (b grows as d³; a pair here is
    ///   under 70 km apart), so d − b(d) ≥ L − b(L) ≥ threshold (b(L) ≤ 1 m up to 11 km, and
    ///   beyond that L − b(L) exceeds any threshold of at most 5 km), so it accepts.
    /// The margins are many orders above the rounding of these few products, so the answer is
    /// the formula's own, not merely one within its error.
    @inline(__always)
    static func bracket(_ threshold: Double, from p: Origin, latitude lat2: Double, longitude lng2: Double) -> Bool? {
        // δ and Δλ exactly as the plane formula computes them
        let delta = abs((lat2 * degree - p.latitude * degree) * 0.5)
        var dl = (lng2 - p.longitude) * degree
        if dl > .pi { dl -= 2 * .pi } else if dl < -.pi { dl += 2 * .pi }
        dl = abs(dl)
        let slack = delta * 1.000_001 + roughCosineError
        let upperX = largestRadius * (p.roughCosLatitude + slack) * dl
        let upperY = largestRadius * 2 * delta
        let near = threshold - 0.001 - threshold * threshold * threshold * largestBoundPerCubicMetre - 1e-6
        if upperX * upperX + upperY * upperY < near * near { return false }
        let lowerX = a * (p.roughCosLatitude - slack) * dl
        let lowerY = smallestRadius * 2 * delta
        let far = threshold + 1
        if lowerX * lowerX + lowerY * lowerY >= far * far { return true }
        return nil
    }

    /// The decision by the plane formula and its error bound, with the exact geodesic for pairs within the
    /// bound of the threshold: what ``isAtLeast(_:from:latitude:longitude:)`` decides for pairs
    /// within 0.05° of latitude and 0.6° of longitude (well inside the 0.002 rad of half
    /// difference where `LocalDistance.metres(from:lat2:lng2:)` switches to its far formula).
    static func byPlaneFormula(_ threshold: Double, from: Origin, latitude: Double, longitude: Double) -> Bool {
        let p = LocalDistance.Point(latitude: from.latitude, longitude: from.longitude)
        let d = LocalDistance.metres(from: p, lat2: latitude, lng2: longitude)
        let bound = LocalDistance.errorBound(distance: d, absTan: p.absTanLatitude)
        if d - bound >= threshold { return true }
        if d + bound < threshold { return false }
        return exact(from, latitude, longitude) >= threshold
    }

    /// The exact geodesic (`Geodesic`, bit-exact with PROJ's `geod_inverse`), for the decisions
    /// the bound cannot make.
    private static func exact(_ from: Origin, _ latitude: Double, _ longitude: Double) -> Double {
        Geodesic.wgs84.distance(from: GeoPoint(latitude: from.latitude, longitude: from.longitude),
                                to: GeoPoint(latitude: latitude, longitude: longitude))
    }
}
