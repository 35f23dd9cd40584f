/// Integer coordinates on a hexagonal grid along three axes 120° apart (H3's "ijk+" system).
///
/// Normalised coordinates have no negative component and at least one zero component.
/// Components are `Int` (the C library uses 32-bit `int`; every value reachable from a
/// valid cell or a finite point stays far inside both ranges).
struct CoordIJK: Equatable, Hashable, Sendable {
    var i: Int
    var j: Int
    var k: Int

    @inline(__always) init(_ i: Int, _ j: Int, _ k: Int) {
        self.i = i
        self.j = j
        self.k = k
    }

    static let zero = CoordIJK(0, 0, 0)

    @inline(__always) static func + (a: CoordIJK, b: CoordIJK) -> CoordIJK {
        CoordIJK(a.i + b.i, a.j + b.j, a.k + b.k)
    }

    @inline(__always) static func - (a: CoordIJK, b: CoordIJK) -> CoordIJK {
        CoordIJK(a.i - b.i, a.j - b.j, a.k - b.k)
    }

    @inline(__always) static func * (a: CoordIJK, s: Int) -> CoordIJK {
        CoordIJK(a.i * s, a.j * s, a.k * s)
    }

    /// Removes negative components, then the common minimum, leaving the same hex.
    ///
    /// H3 does this in four conditional steps; each adds the same amount to all three
    /// components and the last leaves the minimum at zero, so the result is always the
    /// coordinates minus their minimum, computed here without branches.
    @inline(__always) mutating func normalize() {
        let m = Swift.min(i, j, k)
        i -= m
        j -= m
        k -= m
    }

    @inline(__always) var normalized: CoordIJK {
        var c = self
        c.normalize()
        return c
    }

    /// The centre of this hex in the face's 2D cartesian plane (unit: the hex spacing).
    @inline(__always) var hex2d: Vec2 {
        let i = self.i - self.k
        let j = self.j - self.k
        return Vec2(x: Double(i) - 0.5 * Double(j), y: Double(j) * H3Constants.m_sqrt3_2)
    }

    /// The hex containing a 2D cartesian point (the quantisation of DGGRID, as in H3).
    ///
    /// The comparisons and the fold across the axes follow H3 4.5.0 step for step, so that
    /// points exactly on a hex edge land in the same hex.
    static func containing(_ v: Vec2) -> CoordIJK {
        let a1 = abs(v.x)
        let a2 = abs(v.y)
        // reverse conversion into the ij system
        let x2 = a2 * H3Constants.m_rsin60
        let x1 = a1 + x2 / 2.0
        let m1 = Int(x1)
        let m2 = Int(x2)
        let r1 = x1 - Double(m1)
        let r2 = x2 - Double(m2)
        var hi: Int
        var hj: Int
        if r1 < 0.5 {
            if r1 < 1.0 / 3.0 {
                hi = m1
                hj = r2 < (1.0 + r1) / 2.0 ? m2 : m2 + 1
            } else {
                hj = r2 < (1.0 - r1) ? m2 : m2 + 1
                hi = ((1.0 - r1) <= r2 && r2 < (2.0 * r1)) ? m1 + 1 : m1
            }
        } else {
            if r1 < 2.0 / 3.0 {
                hj = r2 < (1.0 - r1) ? m2 : m2 + 1
                hi = ((2.0 * r1 - 1.0) < r2 && r2 < (1.0 - r1)) ? m1 : m1 + 1
            } else {
                hi = m1 + 1
                hj = r2 < (r1 / 2.0) ? m2 : m2 + 1
            }
        }
        // fold across the axes if necessary
        if v.x < 0.0 {
            if hj % 2 == 0 {
                let diff = hi - hj / 2
                hi = Int(Double(hi) - 2.0 * Double(diff))
            } else {
                let diff = hi - (hj + 1) / 2
                hi = Int(Double(hi) - (2.0 * Double(diff) + 1))
            }
        }
        if v.y < 0.0 {
            hi = hi - (2 * hj + 1) / 2
            hj = -hj
        }
        var c = CoordIJK(hi, hj, 0)
        c.normalize()
        return c
    }

    /// The digit of a unit (or zero) vector, or `.invalid` when it is neither.
    @inline(__always) var unitDigit: Direction {
        let c = normalized
        // unit vectors have components in 0...1: encode them as the digit's bits (i=4, j=2, k=1)
        if c.i | c.j | c.k > 1 || c.i < 0 || c.j < 0 || c.k < 0 { return .invalid }
        return Direction(unchecked: UInt8(c.i << 2 | c.j << 1 | c.k))
    }

    /// The digit of a unit offset given in two-axis form (Δ(i − k), Δ(j − k)), or `.invalid`.
    @inline(__always) static func digit(di: Int, dj: Int) -> Direction {
        let a = di &+ 1
        let b = dj &+ 1
        guard UInt(bitPattern: a) < 3, UInt(bitPattern: b) < 3 else { return .invalid }
        return Direction(unchecked: twoAxisDigits[a &* 3 &+ b])
    }

    /// `twoAxisDigits[(Δi + 1) * 3 + (Δj + 1)]`: the unit vectors of the digits in two-axis form
    /// are 1 (−1, −1), 2 (0, 1), 3 (−1, 0), 4 (1, 0), 5 (0, −1), 6 (1, 1), 0 (0, 0).
    private static let twoAxisDigits: [UInt8] = [
        1, 3, 7,  // Δi = −1: Δj = −1, 0, 1
        5, 0, 2,  // Δi = 0
        7, 4, 6,  // Δi = 1
    ]

    // MARK: aperture-7 and aperture-3 steps

    /// `round(n / 7)` with halves away from zero, as the C library's `lround(n * M_ONESEVENTH)`.
    ///
    /// For an integer n the quotient n/7 has fractional part k/7, never within 1/14 of a half,
    /// and `n * M_ONESEVENTH` is within 2⁻⁵² relative of n/7, so the double rounding of the C
    /// library and this integer form always agree (|n| is far below 2⁴⁸ here). The integer form
    /// avoids two libm calls per resolution level.
    ///
    /// As no quotient is ever exactly half-way, the rounding is ⌊(n + 3) / 7⌋, taken here with an
    /// unsigned division after an offset (a multiply and a shift, no branch). Valid for
    /// |n| < 7·2³², far beyond any coordinate of resolution 15 (about 2·10⁷).
    @inline(__always) static func roundDiv7(_ n: Int) -> Int {
        let offset = 7 << 32
        return Int(truncatingIfNeeded: UInt64(bitPattern: Int64(n &+ 3 &+ offset)) / 7) &- (1 << 32)
    }

    /// ``roundDiv7(_:)`` for |n| < 2²⁹, as the index's walk up from a face's coordinates meets
    /// them (below 10⁸ at resolution 15): ⌊(n + 3 + 7·2²⁸) / 7⌋ − 2²⁸, the division a multiply
    /// by ⌈2³⁴ / 7⌉ = (2³⁴ + 5) / 7 and a shift. With the dividend N = 7q + r, the product
    /// over 2³⁴ is q + r/7 + 5N / (7·2³⁴), whose floor is q while 5N < 2³⁴, N below 3.4·10⁹;
    /// here N < 2.5·10⁹. The general form divides a 64-bit dividend, a longer multiply with a
    /// fix-up: three instructions more a step, thirty steps a cell at resolution 15 (callgrind).
    @inline(__always) static func roundDiv7Bounded(_ n: Int) -> Int {
        assert(n > -(1 << 29) && n < 1 << 29, "roundDiv7Bounded: |n| must stay below 2^29")
        let dividend = UInt64(truncatingIfNeeded: n &+ (3 &+ 7 << 28))
        return Int(truncatingIfNeeded: (dividend &* 2_454_267_027) >> 34) &- (1 << 28)
    }

    /// Moves to the containing hex one resolution coarser, Class III (counter-clockwise) step.
    @inline(__always) mutating func upAp7() {
        let i = self.i - self.k
        let j = self.j - self.k
        self = CoordIJK(CoordIJK.roundDiv7(3 * i - j), CoordIJK.roundDiv7(i + 2 * j), 0)
        normalize()
    }

    /// Moves to the containing hex one resolution coarser, Class II (clockwise) step.
    @inline(__always) mutating func upAp7r() {
        let i = self.i - self.k
        let j = self.j - self.k
        self = CoordIJK(CoordIJK.roundDiv7(2 * i + j), CoordIJK.roundDiv7(3 * j - i), 0)
        normalize()
    }

    /// The centre hex one resolution finer, counter-clockwise aperture 7.
    @inline(__always) mutating func downAp7() {
        // res r unit vectors in res r+1: i → (3,0,1), j → (1,3,0), k → (0,1,3)
        self = CoordIJK(3 * i + j, 3 * j + k, i + 3 * k)
        normalize()
    }

    /// The centre hex one resolution finer, clockwise aperture 7.
    @inline(__always) mutating func downAp7r() {
        // i → (3,1,0), j → (0,3,1), k → (1,0,3)
        self = CoordIJK(3 * i + k, i + 3 * j, j + 3 * k)
        normalize()
    }

    /// The centre hex in the aperture-3 counter-clockwise substrate grid.
    @inline(__always) mutating func downAp3() {
        // i → (2,0,1), j → (1,2,0), k → (0,1,2)
        self = CoordIJK(2 * i + j, 2 * j + k, i + 2 * k)
        normalize()
    }

    /// The centre hex in the aperture-3 clockwise substrate grid.
    @inline(__always) mutating func downAp3r() {
        // i → (2,1,0), j → (0,2,1), k → (1,0,2)
        self = CoordIJK(2 * i + k, i + 2 * j, j + 2 * k)
        normalize()
    }

    /// Moves to the neighbouring hex in direction `digit` (no move for centre or invalid).
    @inline(__always) mutating func move(_ digit: Direction) {
        if digit.rawValue > 0 && digit.rawValue < 7 {
            self = self + Direction.unitVectors[Int(digit.rawValue)]
            normalize()
        }
    }

    /// Rotates the coordinates 60° counter-clockwise about the origin.
    @inline(__always) mutating func rotate60ccw() {
        // i → (1,1,0), j → (0,1,1), k → (1,0,1)
        self = CoordIJK(i + k, i + j, j + k)
        normalize()
    }

    /// Rotates the coordinates 60° clockwise about the origin.
    @inline(__always) mutating func rotate60cw() {
        // i → (1,0,1), j → (1,1,0), k → (0,1,1)
        self = CoordIJK(i + j, j + k, i + k)
        normalize()
    }
}
