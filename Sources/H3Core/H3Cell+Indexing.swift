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
        var r = res
        while r >= 1 {
            let pi: Int, pj: Int, centerI: Int, centerJ: Int
            // (wrapping arithmetic: no overflow checks, as face coordinates stay below 10⁸)
            if FaceIJK.isClassIII(r) {
                // counter-clockwise up step, then the parent's centre one level down
                pi = CoordIJK.roundDiv7(3 &* ci &- cj)
                pj = CoordIJK.roundDiv7(ci &+ 2 &* cj)
                centerI = 2 &* pi &+ pj
                centerJ = 3 &* pj &- pi
            } else {
                // clockwise up step and its centre
                pi = CoordIJK.roundDiv7(2 &* ci &+ cj)
                pj = CoordIJK.roundDiv7(3 &* cj &- ci)
                centerI = 3 &* pi &- pj
                centerJ = pi &+ 2 &* pj
            }
            h = H3IndexBits.setDigit(h, r, CoordIJK.digit(di: ci &- centerI, dj: cj &- centerJ))
            ci = pi
            cj = pj
            r -= 1
        }
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
        for r in stride(from: 1, through: cellRes, by: 1) {
            if FaceIJK.isClassIII(r) { fijk.coord.downAp7() } else { fijk.coord.downAp7r() }
            fijk.coord.move(H3IndexBits.digit(h, r))
        }
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
