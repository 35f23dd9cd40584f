/// Converting between points, face coordinates and indexes (`latLngToCell` and its inverse).
extension H3Cell {
    /// The cell at `resolution` containing a point (H3's `latLngToCell`).
    ///
    /// - Parameters:
    ///   - point: latitude and longitude in degrees; any finite values (see ``LatLng``).
    ///   - resolution: the resolution of the cell.
    /// - Throws: ``H3Error/latLngDomain`` when a coordinate is NaN or infinite.
    /// - Complexity: O(resolution).
    public init(_ point: LatLng, resolution: H3Resolution) throws(H3Error) {
        guard point.isFinite else { throw .latLngDomain }
        let res = resolution.rawValue
        // the trig-free projection where its answer is certain, else the C library's path
        let fijk = AlgebraicProjection.hex(latitude: point.latitude, longitude: point.longitude, resolution: res)
            ?? FaceIJK(point, resolution: res)
        let index = H3Cell.index(of: fijk, resolution: res)
        // unreachable for a finite point: the containing hex always lies within a face's range
        guard index != 0 else { throw .latLngDomain }
        self.init(unchecked: index)
    }

    /// The index of the hex at `fijk` (H3's `_faceIjkToH3`), or 0 when the coordinates are
    /// out of range.
    static func index(of fijk: FaceIJK, resolution res: Int) -> UInt64 {
        var h = H3IndexBits.setResolution(H3IndexBits.initial, res)
        var ijk = fijk.coord
        if res == 0 {
            guard ijk.i <= 2, ijk.j <= 2, ijk.k <= 2 else { return 0 }
            return H3IndexBits.setBaseCell(h, BaseCells.lookup(face: fijk.face, ijk).baseCell)
        }
        // From the finest resolution up, each digit is the offset of the hex from its parent's
        // centre. The walk runs on the two-axis form (i − k, j − k): the aperture-7 steps are
        // linear and blind to adding the same amount to i, j and k, so normalising between
        // steps changes nothing there, and the digit is read from the offset with a table.
        var ci = ijk.i - ijk.k
        var cj = ijk.j - ijk.k
        // The digits are gathered at their places, finest first, and replace h's 7s at the end:
        // each one set into h alone (cleared, then or-ed) was about 6 instructions more a level
        // (callgrind).
        var digits: UInt64 = 0
        var offset = H3IndexBits.digitOffset(res)
        var r = res
        while r >= 1 {
            let pi: Int, pj: Int, centerI: Int, centerJ: Int
            // (wrapping arithmetic: no overflow checks, as face coordinates stay below 10⁸,
            // within roundDiv7Bounded's range too)
            if FaceIJK.isClassIII(r) {
                // counter-clockwise up step, then the parent's centre one level down
                pi = CoordIJK.roundDiv7Bounded(3 &* ci &- cj)
                pj = CoordIJK.roundDiv7Bounded(ci &+ 2 &* cj)
                centerI = 2 &* pi &+ pj
                centerJ = 3 &* pj &- pi
            } else {
                // clockwise up step and its centre
                pi = CoordIJK.roundDiv7Bounded(2 &* ci &+ cj)
                pj = CoordIJK.roundDiv7Bounded(3 &* cj &- ci)
                centerI = 3 &* pi &- pj
                centerJ = pi &+ 2 &* pj
            }
            digits |= UInt64(CoordIJK.digit(di: ci &- centerI, dj: cj &- centerJ).rawValue) &<< offset
            ci = pi
            cj = pj
            offset &+= H3IndexBits.bitsPerDigit
            r -= 1
        }
        h = H3IndexBits.settingDigits(h, through: res, to: digits)
        ijk = CoordIJK(ci, cj, 0).normalized
        guard ijk.i <= 2, ijk.j <= 2, ijk.k <= 2 else { return 0 }
        let (baseCell, numRots) = BaseCells.lookup(face: fijk.face, ijk)
        h = H3IndexBits.setBaseCell(h, baseCell)
        // rotate into the base cell's canonical orientation
        if BaseCells.isPentagon(baseCell) {
            // force rotation out of the missing k-axes sub-sequence
            if H3IndexBits.leadingNonZeroDigit(h) == .kAxes {
                h = BaseCells.isCwOffset(baseCell, face: fijk.face) ? H3Digits.rotate60cw(h) : H3Digits.rotate60ccw(h)
            }
            for _ in 0..<numRots { h = H3Digits.rotatePentagon60ccw(h) }
        } else {
            for _ in 0..<numRots { h = H3Digits.rotate60ccw(h) }
        }
        return h
    }

    /// The face and coordinates of this cell's centre (H3's `_h3ToFaceIjk`), on the face
    /// where the centre lies.
    var faceIJK: FaceIJK {
        var h = rawValue
        let baseCell = H3IndexBits.baseCell(h)
        let isPentagonBase = BaseCells.isPentagon(baseCell)
        // all of a pentagon's sub-sequence 5 (and some of 4, below) needs adjusting
        if isPentagonBase && H3IndexBits.leadingNonZeroDigit(h) == .ikAxes {
            h = H3Digits.rotate60cw(h)
        }
        let home = BaseCells.data[baseCell]
        var fijk = FaceIJK(face: home.homeFace, coord: home.homeIJK)
        let cellRes = H3IndexBits.resolution(h)

        // walk down from the base cell; only cells of a pentagon base cell, or off the base
        // cell's centre, can spill onto another face
        let possibleOverage = isPentagonBase || !(cellRes == 0 || fijk.coord == .zero)
        fijk.coord = DigitWalk.center(of: h, resolution: cellRes, home: fijk.coord)
        guard possibleOverage else { return fijk }

        let original = fijk.coord
        var res = cellRes
        // in Class III, drop into the next finer Class II grid
        if FaceIJK.isClassIII(res) {
            fijk.coord.downAp7r()
            res += 1
        }
        let pentLeading4 = isPentagonBase && H3IndexBits.leadingNonZeroDigit(h) == .iAxes
        if fijk.adjustOverageClassII(resolution: res, pentLeading4: pentLeading4, substrate: false) != .none {
            // a pentagon base cell can have secondary overages
            if isPentagonBase {
                while fijk.adjustOverageClassII(resolution: res, pentLeading4: false, substrate: false) != .none {}
            }
            if res != cellRes { fijk.coord.upAp7r() }
        } else if res != cellRes {
            fijk.coord = original
        }
        return fijk
    }
}

/// `_h3ToFaceIjk`'s walk down an index's digits, as one sum.
///
/// H3 walks from the base cell's home coordinates one resolution at a time: an aperture-7 step
/// down (counter-clockwise into a Class III resolution, clockwise into a Class II one), then a
/// move by the digit's unit vector, normalising after each. Both are linear on the two-axis form
/// (i − k, j − k), which normalising does not change (it only removes a multiple of (1, 1, 1)),
/// so the end point is the home coordinates carried through every step plus, for each digit,
/// its unit vector carried through the steps after it. Those carried vectors are tabled per
/// (cell resolution, digit resolution, digit), so the walk is one load and one add a digit:
/// at resolution 9 it was about 650 instructions a cell, 15 % of `polygonToCells` at
/// resolution 11 (perf) — the same answer, as the tests of every cell-to-coordinates function
/// against H3 check.
enum DigitWalk {
    /// A two-axis vector (i − k, j − k) packed in one word, x · 2³² + y, so that a sum of them is
    /// one addition: every |x| and |y| here stays below 2³⁰ (at most 2 · √7¹⁵ ≈ 4.3 · 10⁶ for the
    /// home coordinates carried to resolution 15), and unpacking takes y's sign back out of x.
    typealias Packed = Int64

    @inline(__always) static func pack(_ x: Int, _ y: Int) -> Packed { Int64(x) &<< 32 &+ Int64(y) }

    @inline(__always) static func unpack(_ p: Packed) -> CoordIJK {
        let y = Int64(Int32(truncatingIfNeeded: p))
        let x = (p &- y) &>> 32
        return CoordIJK(Int(x), Int(y), 0).normalized
    }

    /// A step down into resolution `r`, on the two-axis form: `downAp7` for Class III,
    /// `downAp7r` for Class II (with k = 0: (3i + j, 3j, i) and (3i, i + 3j, j)).
    @inline(__always) static func stepDown(_ v: (x: Int, y: Int), into r: Int) -> (x: Int, y: Int) {
        FaceIJK.isClassIII(r) ? (2 * v.x + v.y, 3 * v.y - v.x) : (3 * v.x - v.y, v.x + 2 * v.y)
    }

    /// `v` carried by the steps down from resolution `r` to resolution `res`.
    static func carried(_ v: (x: Int, y: Int), from r: Int, to res: Int) -> Packed {
        var v = v
        var s = r + 1
        while s <= res {
            v = stepDown(v, into: s)
            s += 1
        }
        return pack(v.x, v.y)
    }

    /// `offsets[(res · 16 + r) · 8 + d]`: digit `d` at resolution `r` (1...res) carried to
    /// resolution `res`; 0 for digit 0 (the centre) and digit 7 (no move, as H3's `_neighbor`).
    static let offsets: [Packed] = {
        var table = [Packed](repeating: 0, count: 16 * 16 * 8)
        for res in 1...15 {
            for r in 1...res {
                for d in 1...6 {
                    let unit = Direction.unitVectors[d]
                    table[(res * 16 + r) * 8 + d] = carried((unit.i - unit.k, unit.j - unit.k), from: r, to: res)
                }
            }
        }
        return table
    }()

    /// `homeAxes[res · 2 + a]`: the two-axis unit vector `a` (x, then y) carried from
    /// resolution 0 to `res`; packing is linear, so home coordinates (x, y) carry as
    /// x · axis 0 + y · axis 1.
    static let homeAxes: [Packed] = (0...15).flatMap { res in
        [carried((1, 0), from: 0, to: res), carried((0, 1), from: 0, to: res)]
    }

    /// The normalised coordinates of the cell `h` of resolution `res` on its base cell's home
    /// face, from the base cell's home coordinates `home`.
    @inline(__always) static func center(of h: UInt64, resolution res: Int, home: CoordIJK) -> CoordIJK {
        var sum: Packed = homeAxes.withUnsafeBufferPointer { axes in
            Int64(home.i &- home.k) &* axes[res &* 2] &+ Int64(home.j &- home.k) &* axes[res &* 2 &+ 1]
        }
        offsets.withUnsafeBufferPointer { table in
            let row = res &* 128
            var r = 1
            while r <= res {
                let d = Int(truncatingIfNeeded: (h &>> H3IndexBits.digitOffset(r)) & H3IndexBits.digitMask)
                sum &+= table[row &+ r &* 8 &+ d]
                r &+= 1
            }
        }
        return unpack(sum)
    }
}

/// Whole-index digit rotations (H3's `_h3Rotate60ccw` and relatives).
enum H3Digits {
    /// Rotates every digit 60° counter-clockwise.
    @inline(__always) static func rotate60ccw(_ h: UInt64) -> UInt64 {
        var h = h
        let res = H3IndexBits.resolution(h)
        var r = 1
        while r <= res {
            h = H3IndexBits.setDigit(h, r, H3IndexBits.digit(h, r).rotated60ccw)
            r += 1
        }
        return h
    }

    /// Rotates every digit 60° clockwise.
    @inline(__always) static func rotate60cw(_ h: UInt64) -> UInt64 {
        var h = h
        let res = H3IndexBits.resolution(h)
        var r = 1
        while r <= res {
            h = H3IndexBits.setDigit(h, r, H3IndexBits.digit(h, r).rotated60cw)
            r += 1
        }
        return h
    }

    /// Rotates a pentagon-descended index 60° ccw, stepping over the deleted k sub-sequence.
    static func rotatePentagon60ccw(_ h: UInt64) -> UInt64 {
        var h = h
        var foundFirstNonZero = false
        let res = H3IndexBits.resolution(h)
        var r = 1
        while r <= res {
            h = H3IndexBits.setDigit(h, r, H3IndexBits.digit(h, r).rotated60ccw)
            if !foundFirstNonZero && H3IndexBits.digit(h, r) != .center {
                foundFirstNonZero = true
                if H3IndexBits.leadingNonZeroDigit(h) == .kAxes { h = rotate60ccw(h) }
            }
            r += 1
        }
        return h
    }

    /// Rotates a pentagon-descended index 60° cw, stepping over the deleted k sub-sequence.
    static func rotatePentagon60cw(_ h: UInt64) -> UInt64 {
        var h = h
        var foundFirstNonZero = false
        let res = H3IndexBits.resolution(h)
        var r = 1
        while r <= res {
            h = H3IndexBits.setDigit(h, r, H3IndexBits.digit(h, r).rotated60cw)
            if !foundFirstNonZero && H3IndexBits.digit(h, r) != .center {
                foundFirstNonZero = true
                if H3IndexBits.leadingNonZeroDigit(h) == .kAxes { h = rotate60cw(h) }
            }
            r += 1
        }
        return h
    }
}
