#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The inverse geodesic problem on an ellipsoid of revolution, solved in Swift by Karney's
/// method: C. F. F. Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55 (2013),
/// doi:10.1007/s00190-012-0578-z, §§ 3–5 (the series to sixth order in the third flattening,
/// the starting guess from the astroid, Newton's method on the longitude difference).
///
/// Why our own: the reference the engine must match bit for bit is pyproj's `Geod.inv`, PROJ's
/// `geod_inverse`, which is GeographicLib's C library (MIT licence; 2.1 in the PROJ 9.5.1 that
/// pyproj 3.7.2 bundles). Linking PROJ for that one function loaded some forty shared libraries
/// at every start (PROJ's SQLite, libcurl, GnuTLS, Kerberos, TIFF, …): about 8 ms of CPU and
/// 570 page faults a start (a C program with and without `-lproj`). Here each arithmetic step
/// is the one GeographicLib's C makes, in the same order and with the same libm functions
/// (`remainder`, `remquo`, `sin`, `cos`, `atan2`, `hypot`, `cbrt`), so the doubles agree to
/// the bit: `GeodesicExactnessTests` checks that against pyproj's answers
/// (`scripts/dev/gen_geodesic_reference.py`).
///
/// Only what the inverse needs is here: the distance and the azimuths (no reduced length,
/// geodesic scale or area).
struct KarneyGeodesic: Sendable {
    // MARK: The ellipsoid

    /// Equatorial radius a, metres.
    let a: Double
    /// Flattening f.
    let f: Double
    /// 1 − f.
    let f1: Double
    /// The second eccentricity squared, e′² = e² / (1 − e²).
    let ep2: Double
    /// The third flattening n = f / (2 − f).
    let n: Double
    /// Polar radius b = a (1 − f).
    let b: Double
    /// Below this σ₁₂ a short line is solved on the auxiliary sphere without Newton's method.
    let etol2: Double
    /// The coefficients of A₃ in ε (6), and of C₃ₗ (15), polynomials in n evaluated once.
    private let a3x: [Double]
    private let c3x: [Double]

    // MARK: Constants (IEEE double)

    static let tiny = Double.leastNormalMagnitude.squareRoot()
    static let tol0 = Double.ulpOfOne
    /// The multiplier 200 rather than 100 is GeographicLib's: it fixed a case that failed to
    /// converge under one compiler.
    static let tol1 = 200 * tol0
    static let tol2 = tol0.squareRoot()
    /// The bisection's end (GeographicLib 2.1; 2.0 had tol0 · tol2).
    static let tolb = tol0
    static let xthresh = 1000 * tol2
    /// Newton iterations before bisection takes over, and the limit on both.
    static let maxit1 = 20
    static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10
    static let degree = Double.pi / 180
    /// The order of the series.
    static let order = 6

    /// - Precondition: 0 ≤ f < 1, an oblate ellipsoid or a sphere (WGS84's f is 1/298.26): the
    /// starting guess for prolate ones (f < 0), which nothing here asks for, is left out.
    init(equatorialRadius a: Double, flattening f: Double) {
        precondition(f >= 0 && f < 1, "KarneyGeodesic solves oblate ellipsoids and spheres (0 <= f < 1)")
        self.a = a
        self.f = f
        f1 = 1 - f
        let e2 = f * (2 - f)
        ep2 = e2 / sq(f1)
        n = f / (2 - f)
        b = a * f1
        etol2 = 0.1 * Self.tol2 / sqrt(fmax(0.001, fabs(f)) * fmin(1.0, 1 - f / 2) / 2)
        a3x = Self.a3Coefficients(n: n)
        c3x = Self.c3Coefficients(n: n)
    }

    // MARK: The inverse problem

    /// The distance from (lat1, lon1) to (lat2, lon2), in metres, and with `azimuths` the
    /// azimuths at both ends in degrees (else zero). NaN for a latitude beyond ±90 or NaN.
    func inverse(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double,
                 azimuths: Bool) -> (distance: Double, azi1: Double, azi2: Double) {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.order + 1) { scratch in
            scratch.initialize(repeating: 0)
            return solve(lat1, lon1, lat2, lon2, azimuths: azimuths, scratch.baseAddress!)
        }
    }

    private func solve(_ latitude1: Double, _ lon1: Double, _ latitude2: Double, _ lon2: Double,
                       azimuths: Bool, _ ca: UnsafeMutablePointer<Double>) -> (distance: Double, azi1: Double, azi2: Double) {
        // the longitude difference in [-180, 180] and its rounding error; made non-negative
        var (lon12, lon12s) = Self.angleDifference(lon1, lon2)
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonsign
        lon12s *= lonsign
        let lam12 = lon12 * Self.degree
        let (slam12, clam12) = Self.sinCosDegrees(lon12, plus: lon12s)
        lon12s = (180 - lon12) - lon12s  // the supplementary difference

        // the canonical form: |lat1| >= |lat2|, lat1 <= -0, lat1 <= lat2 <= -lat1
        var lat1 = Self.roundAngle(Self.latitudeOrNaN(latitude1))
        var lat2 = Self.roundAngle(Self.latitudeOrNaN(latitude2))
        let swapp: Double = fabs(lat1) < fabs(lat2) || lat2.isNaN ? -1 : 1
        if swapp < 0 {
            lonsign *= -1
            swap(&lat1, &lat2)
        }
        let latsign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign

        // the reduced latitudes β, with cos β ≥ tiny at the poles
        var (sbet1, cbet1) = Self.sinCosDegrees(lat1)
        sbet1 *= f1
        Self.normalize(&sbet1, &cbet1)
        cbet1 = fmax(Self.tiny, cbet1)
        var (sbet2, cbet2) = Self.sinCosDegrees(lat2)
        sbet2 *= f1
        Self.normalize(&sbet2, &cbet2)
        cbet2 = fmax(Self.tiny, cbet2)
        // |β2| = |β1| made exact where the difference vanished in rounding
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = copysign(sbet1, sbet2) }
        } else {
            if fabs(sbet2) == -sbet1 { cbet2 = cbet1 }
        }
        let dn1 = sqrt(1 + ep2 * sq(sbet1))
        let dn2 = sqrt(1 + ep2 * sq(sbet2))

        var s12x = 0.0, m12x = 0.0, sig12 = 0.0
        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0
        var meridian = lat1 == -90 || slam12 == 0
        if meridian {
            // both ends on one meridian: the geodesic may run along it
            calp1 = clam12
            salp1 = slam12
            calp2 = 1
            salp2 = 0
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            sig12 = atan2(fmax(0.0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
            (s12x, m12x) = lengths(n, sig12, ssig1, csig1, dn1, ssig2, csig2, dn2, distance: true, ca)
            if sig12 < 1 || m12x >= 0 {
                if sig12 < 3 * Self.tiny || (sig12 < Self.tol0 && (s12x < 0 || m12x < 0)) {
                    sig12 = 0
                    m12x = 0
                    s12x = 0
                }
                m12x *= b
                s12x *= b
            } else {
                // m12 < 0: prolate and too close to antipodal
                meridian = false
            }
        }

        if !meridian && sbet1 == 0 && (f <= 0 || lon12s >= f * 180) {
            // along the equator
            calp1 = 0
            calp2 = 0
            salp1 = 1
            salp2 = 1
            s12x = a * lam12
        } else if !meridian {
            let start = inverseStart(sbet1, cbet1, dn1, sbet2, cbet2, dn2, lam12, slam12, clam12, ca)
            sig12 = start.sig12
            salp1 = start.salp1
            calp1 = start.calp1
            if sig12 >= 0 {
                // a short line, solved on the auxiliary sphere
                salp2 = start.salp2
                calp2 = start.calp2
                s12x = sig12 * b * start.dnm
            } else {
                // Newton's method on λ12(α1) − λ12 = 0, its root bracketed, bisecting when a
                // step leaves the bracket or the derivative is not positive
                var step = Lambda()
                var numit = 0
                var salp1a = Self.tiny, calp1a = 1.0, salp1b = Self.tiny, calp1b = -1.0
                var tripn = false, tripb = false
                while true {
                    step = lambda12(sbet1, cbet1, dn1, sbet2, cbet2, dn2, salp1, calp1, slam12, clam12,
                                    derivative: numit < Self.maxit1, ca)
                    let v = step.lam12
                    // written so that a NaN ends the loop
                    if tripb || !(fabs(v) >= (tripn ? 8 : 1) * Self.tol0) || numit == Self.maxit2 { break }
                    if v > 0 && (numit > Self.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1
                        calp1b = calp1
                    } else if v < 0 && (numit > Self.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1
                        calp1a = calp1
                    }
                    if numit < Self.maxit1 && step.dlam12 > 0 {
                        let dalp1 = -v / step.dlam12
                        if fabs(dalp1) < Double.pi {
                            let sdalp1 = sin(dalp1), cdalp1 = cos(dalp1)
                            let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                            if nsalp1 > 0 {
                                calp1 = calp1 * cdalp1 - salp1 * sdalp1
                                salp1 = nsalp1
                                Self.normalize(&salp1, &calp1)
                                // where the slope vanishes convergence is not quadratic: a tighter test
                                tripn = fabs(v) <= 16 * Self.tol0
                                numit += 1
                                continue
                            }
                        }
                    }
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    Self.normalize(&salp1, &calp1)
                    tripn = false
                    tripb = fabs(salp1a - salp1) + (calp1a - calp1) < Self.tolb
                        || fabs(salp1 - salp1b) + (calp1 - calp1b) < Self.tolb
                    numit += 1
                }
                salp2 = step.salp2
                calp2 = step.calp2
                sig12 = step.sig12
                (s12x, m12x) = lengths(step.eps, sig12, step.ssig1, step.csig1, dn1, step.ssig2, step.csig2, dn2,
                                          distance: true, ca)
                s12x *= b
            }
        }
        let distance = 0 + s12x  // -0 becomes 0
        guard azimuths else { return (distance, 0, 0) }

        // the azimuths back in the caller's frame
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
        }
        salp1 *= swapp * lonsign
        calp1 *= swapp * latsign
        salp2 *= swapp * lonsign
        calp2 *= swapp * latsign
        return (distance, Self.atan2Degrees(salp1, calp1), Self.atan2Degrees(salp2, calp2))
    }

    // MARK: The starting guess

    private struct Start {
        var sig12 = -1.0
        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0, dnm = 0.0
    }

    /// α1 to start Newton's method from (`sig12` < 0), or for a short line the solution itself
    /// (`sig12` ≥ 0 with α2 and the mean `dnm`).
    private func inverseStart(_ sbet1: Double, _ cbet1: Double, _ dn1: Double,
                              _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
                              _ lam12: Double, _ slam12: Double, _ clam12: Double,
                              _ ca: UnsafeMutablePointer<Double>) -> Start {
        var start = Start()
        // β12 = β2 − β1 in [0, π); β12a = β2 + β1 in (−π, 0]
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        if shortline {
            var sbetm2 = sq(sbet1 + sbet2)
            sbetm2 /= sbetm2 + sq(cbet1 + cbet2)
            start.dnm = sqrt(1 + ep2 * sbetm2)
            let omg12 = lam12 / (f1 * start.dnm)
            somg12 = sin(omg12)
            comg12 = cos(omg12)
        } else {
            somg12 = slam12
            comg12 = clam12
        }
        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * sq(somg12) / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * sq(somg12) / (1 - comg12)
        let ssig12 = hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortline && ssig12 < etol2 {
            // really short: the great circle on the auxiliary sphere
            var salp2 = cbet1 * somg12
            var calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? sq(somg12) / (1 + comg12) : 1 - comg12)
            Self.normalize(&salp2, &calp2)
            start.salp2 = salp2
            start.calp2 = calp2
            start.sig12 = atan2(ssig12, csig12)
        } else if fabs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * fabs(n) * Double.pi * sq(cbet1) {
            // the spherical guess will do
        } else {
            // nearly antipodal: scale to coordinates with the antipode at the origin and the
            // singular point at (−1, 0), and solve the astroid
            // (x along the longitude, y along the latitude: f ≥ 0)
            let lam12x = atan2(-slam12, -clam12)  // λ12 − π
            let k2 = sq(sbet1) * ep2
            let eps = k2 / (2 * (1 + sqrt(1 + k2)) + k2)
            let lamscale = f * cbet1 * a3(eps) * Double.pi
            let betscale = lamscale * cbet1
            let x = lam12x / lamscale
            let y = sbet12a / betscale
            if y > -Self.tol1 && x > -1 - Self.xthresh {
                // the strip near the cut
                salp1 = fmin(1.0, -x)
                calp1 = -sqrt(1 - sq(salp1))
            } else {
                // ω12 from the astroid (better than α1 from it: fewer Newton steps, Karney § 5)
                let k = Self.astroid(x, y)
                let omg12a = lamscale * (-x * k / (1 + k))
                somg12 = sin(omg12a)
                comg12 = -cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * sq(somg12) / (1 - comg12)
            }
        }
        // a guess pointing backwards (or NaN) becomes due east
        if !(salp1 <= 0) {
            Self.normalize(&salp1, &calp1)
        } else {
            salp1 = 1
            calp1 = 0
        }
        start.salp1 = salp1
        start.calp1 = calp1
        return start
    }

    /// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 (Karney, eq. 55).
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = sq(x), q = sq(y)
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else { return 0 }
        let s = p * q / 4
        let r2 = sq(r)
        let r3 = r * r2
        // zero on the evolute p^(1/3) + q^(1/3) = 1
        let disc = s * (s + 2 * r3)
        var u = r
        if disc >= 0 {
            var t3 = s + r3
            // the sign of the root that avoids cancellation
            t3 += t3 < 0 ? -sqrt(disc) : sqrt(disc)
            let t = cbrt(t3)
            u += t + (t != 0 ? r2 / t : 0)
        } else {
            let ang = atan2(sqrt(-disc), -(s + r3))
            u += 2 * r * cos(ang / 3)
        }
        let v = sqrt(sq(u) + q)
        let uv = u < 0 ? q / (v - u) : u + v
        let w = (uv - q) / (2 * v)
        return uv / (sqrt(uv + sq(w)) + w)
    }

    // MARK: λ12 as a function of α1

    private struct Lambda {
        var lam12 = 0.0
        var salp2 = 0.0, calp2 = 0.0, sig12 = 0.0
        var ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0
        var eps = 0.0, dlam12 = 0.0
    }

    /// The longitude difference λ12 reached from the first point at azimuth α1 less the one
    /// wanted (its sine and cosine `slam120`, `clam120`), with its derivative when asked.
    private func lambda12(_ sbet1: Double, _ cbet1: Double, _ dn1: Double,
                          _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
                          _ salp1: Double, _ calp1In: Double, _ slam120: Double, _ clam120: Double,
                          derivative: Bool, _ ca: UnsafeMutablePointer<Double>) -> Lambda {
        var out = Lambda()
        // the equatorial line's degeneracy, broken (that case was solved before)
        let calp1 = sbet1 == 0 && calp1In == 0 ? -Self.tiny : calp1In
        let salp0 = salp1 * cbet1
        let calp0 = hypot(calp1, salp1 * sbet1)
        var ssig1 = sbet1
        let somg1 = salp0 * sbet1
        var csig1 = calp1 * cbet1
        let comg1 = csig1
        Self.normalize(&ssig1, &csig1)
        // symmetric where |β2| = −β1, which would make the iteration singular
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        let calp2 = cbet2 != cbet1 || fabs(sbet2) != -sbet1
            ? sqrt(sq(calp1 * cbet1) + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2)
                                                       : (sbet1 - sbet2) * (sbet1 + sbet2))) / cbet2
            : fabs(calp1)
        var ssig2 = sbet2
        let somg2 = salp0 * sbet2
        var csig2 = calp2 * cbet2
        let comg2 = csig2
        Self.normalize(&ssig2, &csig2)
        let sig12 = atan2(fmax(0.0, csig1 * ssig2 - ssig1 * csig2) + 0, csig1 * csig2 + ssig1 * ssig2)
        let somg12 = fmax(0.0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        let eta = atan2(somg12 * clam120 - comg12 * slam120, comg12 * clam120 + somg12 * slam120)
        let k2 = sq(calp0) * ep2
        let eps = k2 / (2 * (1 + sqrt(1 + k2)) + k2)
        c3(eps, ca)
        let b312 = Self.sineSeries(ssig2, csig2, ca, Self.order - 1)
            - Self.sineSeries(ssig1, csig1, ca, Self.order - 1)
        let domg12 = -f * a3(eps) * salp0 * (sig12 + b312)
        out.lam12 = eta + domg12
        if derivative {
            if calp2 == 0 {
                out.dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                var dlam12 = lengths(eps, sig12, ssig1, csig1, dn1, ssig2, csig2, dn2, distance: false, ca).m12b
                dlam12 *= f1 / (calp2 * cbet2)
                out.dlam12 = dlam12
            }
        }
        out.salp2 = salp2
        out.calp2 = calp2
        out.sig12 = sig12
        out.ssig1 = ssig1
        out.csig1 = csig1
        out.ssig2 = ssig2
        out.csig2 = csig2
        out.eps = eps
        return out
    }

    // MARK: Distance and reduced length along the line

    /// s12 / b (when `distance`, else 0) and the reduced length m12 / b. `ca` is scratch of
    /// `order + 1` doubles.
    private func lengths(_ eps: Double, _ sig12: Double,
                         _ ssig1: Double, _ csig1: Double, _ dn1: Double,
                         _ ssig2: Double, _ csig2: Double, _ dn2: Double,
                         distance: Bool, _ ca: UnsafeMutablePointer<Double>) -> (s12b: Double, m12b: Double) {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.order + 1) { scratch in
            scratch.initialize(repeating: 0)
            let cb = scratch.baseAddress!
            var a1 = Self.a1m1(eps)
            Self.c1(eps, ca)
            var a2 = Self.a2m1(eps)
            Self.c2(eps, cb)
            let m0 = a1 - a2
            a2 = 1 + a2
            a1 = 1 + a1
            var s12b = 0.0, j12: Double
            if distance {
                let b1 = Self.sineSeries(ssig2, csig2, ca, Self.order)
                    - Self.sineSeries(ssig1, csig1, ca, Self.order)
                s12b = a1 * (sig12 + b1)
                let b2 = Self.sineSeries(ssig2, csig2, cb, Self.order)
                    - Self.sineSeries(ssig1, csig1, cb, Self.order)
                j12 = m0 * sig12 + (a1 * b1 - a2 * b2)
            } else {
                for l in 1...Self.order { cb[l] = a1 * ca[l] - a2 * cb[l] }
                j12 = m0 * sig12 + (Self.sineSeries(ssig2, csig2, cb, Self.order)
                                    - Self.sineSeries(ssig1, csig1, cb, Self.order))
            }
            // the products in parentheses cancel exactly for coincident points
            let m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * j12
            return (s12b, m12b)
        }
    }

    // MARK: The series (Karney, eqs. 17, 18, 24, 25, 42, 43; coefficients from § 7 of the paper)

    /// Σ c[l] sin 2lx for l in 1...n, by Clenshaw summation. (The cosine series of the area
    /// is not needed: no area is computed.)
    static func sineSeries(_ sinx: Double, _ cosx: Double, _ c: UnsafePointer<Double>, _ n: Int) -> Double {
        var k = n + 1  // one beyond the last term
        let ar = 2 * (cosx - sinx) * (cosx + sinx)  // 2 cos 2x
        var y0 = 0.0, y1 = 0.0
        if n & 1 != 0 {
            k -= 1
            y0 = c[k]
        }
        var pairs = n / 2
        while pairs > 0 {
            pairs -= 1
            k -= 1
            y1 = ar * y0 - y1 + c[k]
            k -= 1
            y0 = ar * y1 - y0 + c[k]
        }
        return 2 * sinx * cosx * y0
    }

    /// p[0] xᴺ + … + p[N] by Horner's rule (0 for N < 0).
    static func polynomial(_ order: Int, _ p: UnsafePointer<Double>, _ x: Double) -> Double {
        guard order >= 0 else { return 0 }
        var y = p[0]
        var i = 1
        while i <= order {
            y = y * x + p[i]
            i += 1
        }
        return y
    }

    /// Each term's polynomial in x and its denominator, to `out(k, polynomial, denominator)`
    /// (the caller divides, in the order the reference rounds): the tables below hold, term
    /// after term, the polynomial's coefficients (highest power first) and then the
    /// denominator. `orders` gives each term's polynomial order.
    private static func evaluate(_ table: [Double], orders: [Int], _ x: Double, into out: (Int, Double, Double) -> Void) {
        table.withUnsafeBufferPointer { t in
            var o = 0
            for (k, m) in orders.enumerated() {
                out(k, polynomial(m, t.baseAddress! + o, x), t[o + m + 1])
                o += m + 2
            }
        }
    }

    /// (1 − ε) A₁ − 1, in ε², over 256.
    private static let a1Table: [Double] = [1, 4, 64, 0, 256]
    /// C₁ₗ / εˡ for l = 1…6, in ε².
    private static let c1Table: [Double] = [-1, 6, -16, 32, -9, 64, -128, 2048, 9, -16, 768, 3, -5, 512, -7, 1280, -7, 2048]
    /// (1 + ε) A₂ − 1, in ε², over 256.
    private static let a2Table: [Double] = [-11, -28, -192, 0, 256]
    /// C₂ₗ / εˡ for l = 1…6, in ε².
    private static let c2Table: [Double] = [1, 2, 16, 32, 35, 64, 384, 2048, 15, 80, 768, 7, 35, 512, 63, 1280, 77, 2048]
    /// A₃'s coefficients of ε⁵ … ε⁰, in n.
    private static let a3Table: [Double] = [-3, 128, -2, -3, 64, -1, -3, -1, 16, 3, -1, -2, 8, 1, -1, 2, 1, 1]
    /// C₃ₗ's coefficients of ε⁵ down to εˡ for l = 1…5, in n.
    private static let c3Table: [Double] = [
        3, 128, 2, 5, 128, -1, 3, 3, 64, -1, 0, 1, 8, -1, 1, 4,
        5, 256, 1, 3, 128, -3, -2, 3, 64, 1, -3, 2, 32,
        7, 512, -10, 9, 384, 5, -9, 5, 192,
        7, 512, -14, 7, 512,
        21, 2560,
    ]
    /// The polynomials' orders in those tables: (6 − l) / 2 for C₁ and C₂; min(5 − j, j) for
    /// the coefficient of εʲ in A₃ and C₃.
    private static let c12Orders = (1...order).map { (order - $0) / 2 }
    private static let a3Orders = (0..<order).reversed().map { j in min(order - j - 1, j) }
    private static let c3Orders = (1..<order).flatMap { l in (l..<order).reversed().map { j in min(order - j - 1, j) } }

    static func a1m1(_ eps: Double) -> Double {
        let t = a1Table.withUnsafeBufferPointer { polynomial(order / 2, $0.baseAddress!, sq(eps)) / $0[order / 2 + 1] }
        return (t + eps) / (1 - eps)
    }

    static func a2m1(_ eps: Double) -> Double {
        let t = a2Table.withUnsafeBufferPointer { polynomial(order / 2, $0.baseAddress!, sq(eps)) / $0[order / 2 + 1] }
        return (t - eps) / (1 + eps)
    }

    /// c[1...6] = C₁ₗ(ε).
    static func c1(_ eps: Double, _ c: UnsafeMutablePointer<Double>) { fourier(c1Table, eps, c) }
    /// c[1...6] = C₂ₗ(ε).
    static func c2(_ eps: Double, _ c: UnsafeMutablePointer<Double>) { fourier(c2Table, eps, c) }

    private static func fourier(_ table: [Double], _ eps: Double, _ c: UnsafeMutablePointer<Double>) {
        let eps2 = sq(eps)
        var d = eps
        evaluate(table, orders: c12Orders, eps2) { k, value, denominator in
            c[k + 1] = d * value / denominator
            d *= eps
        }
    }

    private static func a3Coefficients(n: Double) -> [Double] {
        var out = [Double](repeating: 0, count: a3Orders.count)
        evaluate(a3Table, orders: a3Orders, n) { k, value, denominator in out[k] = value / denominator }
        return out
    }

    private static func c3Coefficients(n: Double) -> [Double] {
        var out = [Double](repeating: 0, count: c3Orders.count)
        evaluate(c3Table, orders: c3Orders, n) { k, value, denominator in out[k] = value / denominator }
        return out
    }

    /// A₃(ε).
    func a3(_ eps: Double) -> Double {
        a3x.withUnsafeBufferPointer { Self.polynomial(Self.order - 1, $0.baseAddress!, eps) }
    }

    /// c[1...5] = C₃ₗ(ε).
    func c3(_ eps: Double, _ c: UnsafeMutablePointer<Double>) {
        c3x.withUnsafeBufferPointer { table in
            var mult = 1.0
            var o = 0
            for l in 1..<Self.order {
                let m = Self.order - l - 1
                mult *= eps
                c[l] = mult * Self.polynomial(m, table.baseAddress! + o, eps)
                o += m + 1
            }
        }
    }

    // MARK: Angles in degrees, reduced exactly before converting to radians

    /// sin and cos of x degrees (+ t), x reduced exactly to [−45, 45] first.
    static func sinCosDegrees(_ x: Double, plus t: Double? = nil) -> (sin: Double, cos: Double) {
        var q: Int32 = 0
        var r = remquo(x, 90, &q)
        if let t { r = roundAngle(r + t) }
        r *= degree
        let s = sin(r), c = cos(r)
        var sinx: Double, cosx: Double
        switch Int(q) & 3 {
        case 0: (sinx, cosx) = (s, c)
        case 1: (sinx, cosx) = (c, -s)
        case 2: (sinx, cosx) = (-s, -c)
        default: (sinx, cosx) = (-c, s)
        }
        // the signs of zeros C's sin and cos would give (C11 F.10.1.12–13)
        cosx += 0
        if sinx == 0 { sinx = copysign(sinx, x) }
        return (sinx, cosx)
    }

    /// atan2(y, x) in degrees, computed in [−45, 45] and then moved to its quadrant.
    static func atan2Degrees(_ yIn: Double, _ xIn: Double) -> Double {
        var x = xIn, y = yIn
        var q = 0
        if fabs(y) > fabs(x) {
            swap(&x, &y)
            q = 2
        }
        if x.sign == .minus {
            x = -x
            q += 1
        }
        let ang = atan2(y, x) / degree
        switch q {
        case 1: return copysign(180, y) - ang
        case 2: return 90 - ang
        case 3: return -90 + ang
        default: return ang
        }
    }

    /// y − x in [−180, 180] and its rounding error e (d + e is exact).
    static func angleDifference(_ x: Double, _ y: Double) -> (Double, Double) {
        var (d, t) = errorFreeSum(remainder(-x, 360), remainder(y, 360))
        (d, t) = errorFreeSum(remainder(d, 360), t)
        // the sign of −180, 0 and 180: from y − x when exact, else opposite to the error
        if d == 0 || fabs(d) == 180 { d = copysign(d, t == 0 ? y - x : -t) }
        return (d, t)
    }

    /// x rounded to a multiple of 2⁻⁵⁶ when below 1/16 in size (so that a latitude within
    /// about 1e-17° of the equator is on it).
    static func roundAngle(_ x: Double) -> Double {
        let z = 1.0 / 16.0
        var y = fabs(x)
        let w = z - y
        y = w > 0 ? z - w : y
        return copysign(y, x)
    }

    static func latitudeOrNaN(_ x: Double) -> Double { fabs(x) > 90 ? .nan : x }

    /// u + v = s + t exactly, s the rounded sum.
    static func errorFreeSum(_ u: Double, _ v: Double) -> (Double, Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        return (s, s != 0 ? 0 - (up + vpp) : s)
    }

    /// (sin, cos) scaled to unit length.
    static func normalize(_ s: inout Double, _ c: inout Double) {
        let r = hypot(s, c)
        s /= r
        c /= r
    }
}

@inline(__always) private func sq(_ x: Double) -> Double { x * x }
