/// Coordinates of a cell in the local IJ system anchored at an origin cell (H3's `CoordIJ`,
/// experimental mode 0).
///
/// The space is a hexagonal grid around the origin: stepping to a neighbour changes `i` or `j`
/// (or both) by one. It is only defined near the origin: far cells, and cells on the far side
/// of a pentagon, have no coordinates, and coordinates from different origins are not
/// comparable. H3 does not promise the same coordinates across its versions; these are 4.5.0's.
///
/// The components are 32-bit because H3's are C `int`s; its arithmetic refuses coordinates
/// whose normalisation would overflow that range, and so does this port.
public struct CoordIJ: Hashable, Sendable {
    /// The i component.
    public var i: Int32
    /// The j component.
    public var j: Int32

    /// Coordinates from their two components.
    public init(i: Int32, j: Int32) {
        self.i = i
        self.j = j
    }
}

extension CoordIJ: CustomStringConvertible {
    /// `I J`, as `geo-enrich h3 cellToLocalIj` writes it.
    public var description: String { "\(i) \(j)" }
}

extension H3Cell {
    /// The local IJ coordinates of this cell in the system anchored at `origin` (H3's
    /// `cellToLocalIj`, mode 0).
    ///
    /// - Parameter origin: the anchor, at the same resolution as this cell.
    /// - Returns: the coordinates; the origin's own are not (0, 0) in general.
    /// - Throws: ``H3Error/resolutionMismatch`` when the resolutions differ;
    ///   ``H3Error/failed`` when the cells are too far apart (their base cells are not
    ///   neighbours) or the unfolding across a pentagon is one H3 refuses.
    /// - Complexity: O(resolution).
    public func localIJ(origin: H3Cell) throws(H3Error) -> CoordIJ {
        let ijk = try LocalIJK.coordinates(of: rawValue, origin: origin.rawValue)
        return CoordIJ(i: Int32(truncatingIfNeeded: ijk.i - ijk.k), j: Int32(truncatingIfNeeded: ijk.j - ijk.k))
    }

    /// The cell at local IJ coordinates `ij` in the system anchored at `origin` (H3's
    /// `localIjToCell`, mode 0), at the origin's resolution.
    ///
    /// - Throws: ``H3Error/failed`` when the coordinates are too far from the origin or out of
    ///   H3's integer range; ``H3Error/pentagon`` when they fall in a pentagon's deleted
    ///   sub-sequence.
    /// - Complexity: O(resolution).
    public init(localIJ ij: CoordIJ, origin: H3Cell) throws(H3Error) {
        let ijk = try LocalIJK.fromIJ(ij)
        self.init(unchecked: try LocalIJK.cell(at: ijk, origin: origin.rawValue))
    }
}

/// H3 4.5.0's local IJK arithmetic (`localij.c`: `cellToLocalIjk`, `localIjkToCell`) and the
/// checked steps it relies on (`coordijk.h`).
enum LocalIJK {
    /// Rotations (60° cw) by origin leading digit, then index leading digit; -1 where a k digit
    /// makes it undefined.
    static let pentagonRotations: [[Int]] = [
        [0, -1, 0, 0, 0, 0, 0],
        [-1, -1, -1, -1, -1, -1, -1],
        [0, -1, 0, 0, 0, 1, 0],
        [0, -1, 0, 0, 1, 1, 0],
        [0, -1, 0, 5, 0, 0, 0],
        [0, -1, 5, 5, 0, 0, 0],
        [0, -1, 0, 0, 0, 0, 0],
    ]
    /// Undoing `pentagonRotations` (60° ccw) when the origin is on a pentagon, by base-cell
    /// direction, then leading digit.
    static let pentagonRotationsReverse: [[Int]] = [
        [0, 0, 0, 0, 0, 0, 0],
        [-1, -1, -1, -1, -1, -1, -1],
        [0, 1, 0, 0, 0, 0, 0],
        [0, 1, 0, 0, 0, 1, 0],
        [0, 5, 0, 0, 0, 0, 0],
        [0, 5, 0, 5, 0, 0, 0],
        [0, 0, 0, 0, 0, 0, 0],
    ]
    /// The same when the index is on a non-polar pentagon and the origin is not.
    static let pentagonRotationsReverseNonpolar: [[Int]] = [
        [0, 0, 0, 0, 0, 0, 0],
        [-1, -1, -1, -1, -1, -1, -1],
        [0, 1, 0, 0, 0, 0, 0],
        [0, 1, 0, 0, 0, 1, 0],
        [0, 5, 0, 0, 0, 0, 0],
        [0, 1, 0, 5, 1, 1, 0],
        [0, 0, 0, 0, 0, 0, 0],
    ]
    /// The same when the index is on a polar pentagon (base cell 4 or 117).
    static let pentagonRotationsReversePolar: [[Int]] = [
        [0, 0, 0, 0, 0, 0, 0],
        [-1, -1, -1, -1, -1, -1, -1],
        [0, 1, 1, 1, 1, 1, 1],
        [0, 1, 0, 0, 0, 1, 0],
        [0, 1, 0, 0, 1, 1, 1],
        [0, 1, 0, 5, 1, 1, 0],
        [0, 1, 1, 0, 1, 1, 1],
    ]
    /// Pairs of directions (origin's, index's; relative to the pentagon base cell) whose
    /// unfolding would cross more than one icosahedron face: H3 refuses them.
    static let failedDirections: [[Bool]] = [
        [false, false, false, false, false, false, false],
        [false, false, false, false, false, false, false],
        [false, false, false, false, true, true, false],
        [false, false, false, false, true, false, true],
        [false, false, true, true, false, false, false],
        [false, false, true, false, false, false, true],
        [false, false, false, true, false, true, false],
    ]

    @inline(__always) private static func d(_ x: Direction) -> Int { Int(x.rawValue) }

    /// The ijk+ coordinates of `index` in the frame of `origin`'s base cell (`cellToLocalIjk`).
    static func coordinates(of index: UInt64, origin: UInt64) throws(H3Error) -> CoordIJK {
        var h = index
        let res = H3IndexBits.resolution(origin)
        guard res == H3IndexBits.resolution(h) else { throw .resolutionMismatch }
        let originBaseCell = H3IndexBits.baseCell(origin)
        let baseCell = H3IndexBits.baseCell(h)

        // the direction between the base cells, both ways
        var dir = Direction.center
        var revDir = Direction.center
        if originBaseCell != baseCell {
            dir = BaseCells.direction(from: originBaseCell, to: baseCell)
            // base cells that are not neighbours cannot be unfolded
            if dir == .invalid { throw .failed }
            revDir = BaseCells.direction(from: baseCell, to: originBaseCell)
        }
        let originOnPent = BaseCells.isPentagon(originBaseCell)
        let indexOnPent = BaseCells.isPentagon(baseCell)

        if dir != .center {
            // undo the index's rotation into its own base cell's frame
            let baseCellRotations = BaseCells.neighborRotations(originBaseCell, dir)
            for _ in 0..<baseCellRotations {
                if indexOnPent {
                    h = H3Digits.rotatePentagon60cw(h)
                    revDir = revDir.rotated60cw
                    if revDir == .kAxes { revDir = revDir.rotated60cw }
                } else {
                    h = H3Digits.rotate60cw(h)
                    revDir = revDir.rotated60cw
                }
            }
        }
        // walk down from the base cell's centre at (0, 0, 0)
        var ijk = CoordIJK.zero
        for r in stride(from: 1, through: res, by: 1) {
            if FaceIJK.isClassIII(r) { ijk.downAp7() } else { ijk.downAp7r() }
            ijk.move(H3IndexBits.digit(h, r))
        }

        if dir != .center {
            var pentagonRotations = 0
            var directionRotations = 0
            if originOnPent {
                let originLeading = H3IndexBits.leadingNonZeroDigit(origin)
                if failedDirections[d(originLeading)][d(dir)] { throw .failed }
                directionRotations = Self.pentagonRotations[d(originLeading)][d(dir)]
                pentagonRotations = directionRotations
            } else if indexOnPent {
                let indexLeading = H3IndexBits.leadingNonZeroDigit(h)
                if failedDirections[d(indexLeading)][d(revDir)] { throw .failed }
                pentagonRotations = Self.pentagonRotations[d(revDir)][d(indexLeading)]
            }
            // a k digit where none can be
            guard pentagonRotations >= 0, directionRotations >= 0 else { throw .invalidCell }
            for _ in 0..<pentagonRotations { ijk.rotate60cw() }

            // the origin base cell's neighbour, scaled down to the resolution
            var offset = CoordIJK.zero
            offset.move(dir)
            for r in stride(from: res - 1, through: 0, by: -1) {
                if FaceIJK.isClassIII(r + 1) { offset.downAp7() } else { offset.downAp7r() }
            }
            for _ in 0..<directionRotations { offset.rotate60cw() }
            ijk = (ijk + offset).normalized
        } else if originOnPent && indexOnPent {
            // the same pentagon base cell
            let originLeading = H3IndexBits.leadingNonZeroDigit(origin)
            let indexLeading = H3IndexBits.leadingNonZeroDigit(h)
            if failedDirections[d(originLeading)][d(indexLeading)] { throw .failed }
            let rotations = Self.pentagonRotations[d(originLeading)][d(indexLeading)]
            for _ in 0..<max(0, rotations) { ijk.rotate60cw() }
        }
        return ijk
    }

    /// `gridDistance` of two cells of one hexagon base cell at one resolution, from the digits
    /// where they differ; `nil` in every other case (the caller takes H3's full path).
    ///
    /// In one hexagon base cell `coordinates(of:origin:)` is the bare digit walk for both cells
    /// (no base-cell direction, no pentagon rotation). That walk is linear: each step is a
    /// linear map of ijk (`downAp7`/`downAp7r`, which take (1,1,1) to a multiple of itself, so
    /// `normalize` does not change the hex) plus the digit's unit vector. The difference of the
    /// two walks is therefore the walk of the digit differences, started at zero at the first
    /// digit where the cells differ: the shared prefix cancels. The distance (the largest
    /// component of the normalised difference) is the same number, from 2 or 3 levels instead
    /// of two full walks for cells a few steps apart: 134 → 29 ns a pair in the H3 API
    /// benchmark (polars-h3 117).
    @inline(__always)
    static func distanceInOneHexagonBaseCell(_ a: UInt64, _ b: UInt64) -> Int? {
        let res = H3IndexBits.resolution(a)
        let baseCell = H3IndexBits.baseCell(a)
        guard res == H3IndexBits.resolution(b), baseCell == H3IndexBits.baseCell(b),
              !BaseCells.isPentagon(baseCell) else { return nil }
        let differing = (a ^ b) & H3IndexBits.allDigitsMask
        if differing == 0 { return 0 }
        // the coarsest digit that differs: bit p lies in digit 15 − p/3
        let first = 15 - (63 - differing.leadingZeroBitCount) / Int(H3IndexBits.bitsPerDigit)
        var d = CoordIJK.zero
        for r in first...res {
            if FaceIJK.isClassIII(r) { d.downAp7() } else { d.downAp7r() }
            let u = Direction.unitVectors[Int(H3IndexBits.digit(a, r).rawValue)]
            let v = Direction.unitVectors[Int(H3IndexBits.digit(b, r).rawValue)]
            d = CoordIJK(d.i &+ u.i &- v.i, d.j &+ u.j &- v.j, d.k &+ u.k &- v.k)
        }
        d.normalize()
        return Swift.max(d.i, d.j, d.k)
    }

    /// The index at ijk+ coordinates in the frame of `origin`'s base cell (`localIjkToCell`).
    static func cell(at ijk: CoordIJK, origin: UInt64) throws(H3Error) -> UInt64 {
        let res = H3IndexBits.resolution(origin)
        let originBaseCell = H3IndexBits.baseCell(origin)
        let originOnPent = BaseCells.isPentagon(originBaseCell)
        var out = H3IndexBits.setResolution(H3IndexBits.initial, res)

        if res == 0 {
            let dir = ijk.unitDigit
            // neither a unit vector nor zero
            if dir == .invalid { throw .failed }
            let newBaseCell = BaseCells.neighbor(originBaseCell, dir)
            // a pentagon's deleted direction
            if newBaseCell == BaseCells.invalid { throw .failed }
            return H3IndexBits.setBaseCell(out, newBaseCell)
        }

        // the digits from the finest resolution up, as in `_faceIjkToH3`
        var current = ijk
        for r in stride(from: res - 1, through: 0, by: -1) {
            let last = current
            var lastCenter: CoordIJK
            if FaceIJK.isClassIII(r + 1) {
                guard current.upAp7Checked() else { throw .failed }
                lastCenter = current
                lastCenter.downAp7()
            } else {
                guard current.upAp7rChecked() else { throw .failed }
                lastCenter = current
                lastCenter.downAp7r()
            }
            out = H3IndexBits.setDigit(out, r + 1, (last - lastCenter).normalized.unitDigit)
        }
        // `current` is now the base cell's offset from the origin's base cell
        if current.i > 1 || current.j > 1 || current.k > 1 { throw .failed }

        var dir = current.unitDigit
        var baseCell = BaseCells.neighbor(originBaseCell, dir)
        // an invalid neighbour is the k direction of a pentagon origin, whose neighbours are
        // never pentagons
        let indexOnPent = baseCell != BaseCells.invalid && BaseCells.isPentagon(baseCell)

        if dir != .center {
            var pentagonRotations = 0
            if originOnPent {
                // unwarp the base-cell direction around the origin's pentagon
                let originLeading = H3IndexBits.leadingNonZeroDigit(origin)
                pentagonRotations = Self.pentagonRotationsReverse[d(originLeading)][d(dir)]
                for _ in 0..<max(0, pentagonRotations) { dir = dir.rotated60ccw }
                // still the deleted direction: across the pentagon's distortion
                if dir == .kAxes { throw .pentagon }
                baseCell = BaseCells.neighbor(originBaseCell, dir)
            }
            let baseCellRotations = BaseCells.neighborRotations(originBaseCell, dir)
            if indexOnPent {
                let revDir = BaseCells.direction(from: baseCell, to: originBaseCell)
                // into the pentagon's frame first: its rotations depend on the leading digit there
                for _ in 0..<baseCellRotations { out = H3Digits.rotate60ccw(out) }
                let indexLeading = H3IndexBits.leadingNonZeroDigit(out)
                pentagonRotations = BaseCells.isPolarPentagon(baseCell)
                    ? pentagonRotationsReversePolar[d(revDir)][d(indexLeading)]
                    : pentagonRotationsReverseNonpolar[d(revDir)][d(indexLeading)]
                guard pentagonRotations >= 0 else { throw .invalidCell }
                for _ in 0..<pentagonRotations { out = H3Digits.rotatePentagon60ccw(out) }
            } else {
                guard pentagonRotations >= 0 else { throw .invalidCell }
                for _ in 0..<pentagonRotations { out = H3Digits.rotate60ccw(out) }
                for _ in 0..<baseCellRotations { out = H3Digits.rotate60ccw(out) }
            }
        } else if originOnPent && indexOnPent {
            let originLeading = H3IndexBits.leadingNonZeroDigit(origin)
            let indexLeading = H3IndexBits.leadingNonZeroDigit(out)
            let rotations = pentagonRotationsReverse[d(originLeading)][d(indexLeading)]
            guard rotations >= 0 else { throw .invalidCell }
            for _ in 0..<rotations { out = H3Digits.rotate60ccw(out) }
        }
        // cases `coordinates(of:origin:)` refuses but the steps above let through
        if indexOnPent && H3IndexBits.leadingNonZeroDigit(out) == .kAxes { throw .pentagon }
        return H3IndexBits.setBaseCell(out, baseCell)
    }

    /// ijk+ coordinates from IJ (`ijToIjk`), refusing those whose normalisation would overflow
    /// H3's 32-bit components.
    static func fromIJ(_ ij: CoordIJ) throws(H3Error) -> CoordIJK {
        let c = CoordIJK(Int(ij.i), Int(ij.j), 0)
        guard !c.normalizeCouldOverflowInt32 else { throw .failed }
        return c.normalized
    }
}

extension CoordIJK {
    /// Whether H3's `_ijkNormalize` could overflow 32-bit components on these i and j
    /// (`_ijkNormalizeCouldOverflow`; k is not looked at, as there).
    var normalizeCouldOverflowInt32: Bool {
        let (hi, lo) = i > j ? (i, j) : (j, i)
        guard lo < 0 else { return false }
        return !CoordIJK.fitsInt32(hi + lo) || !CoordIJK.fitsInt32(-lo) || !CoordIJK.fitsInt32(hi - lo)
    }

    @inline(__always) static func fitsInt32(_ x: Int) -> Bool { x >= Int(Int32.min) && x <= Int(Int32.max) }

    /// `upAp7` that refuses, as H3's `_upAp7Checked`, coordinates whose products would overflow
    /// 32 bits; `false` then, with the coordinates unchanged.
    mutating func upAp7Checked() -> Bool {
        let i = self.i - self.k
        let j = self.j - self.k
        let limit = Int(Int32.max / 3)
        if i >= limit || j >= limit || i < 0 || j < 0 {
            let f = CoordIJK.fitsInt32
            guard f(2 * i), f(3 * i), f(2 * j), f(3 * i - j), f(i + 2 * j) else { return false }
        }
        upAp7()
        return true
    }

    /// `upAp7r` that refuses, as H3's `_upAp7rChecked`, coordinates whose products would
    /// overflow 32 bits; `false` then, with the coordinates unchanged.
    mutating func upAp7rChecked() -> Bool {
        let i = self.i - self.k
        let j = self.j - self.k
        let limit = Int(Int32.max / 3)
        if i >= limit || j >= limit || i < 0 || j < 0 {
            let f = CoordIJK.fitsInt32
            guard f(2 * i), f(2 * j), f(3 * j), f(2 * i + j), f(3 * j - i) else { return false }
        }
        upAp7r()
        return true
    }

    /// The grid distance between two ijk+ coordinates (`ijkDistance`).
    static func distance(_ a: CoordIJK, _ b: CoordIJK) -> Int {
        let diff = (a - b).normalized
        return Swift.max(abs(diff.i), abs(diff.j), abs(diff.k))
    }
}

extension BaseCells {
    /// The direction from base cell `origin` to its neighbour `neighbor`, `.invalid` when they
    /// are not neighbours (`_getBaseCellDirection`; the centre direction for the cell itself).
    static func direction(from origin: Int, to neighbor: Int) -> Direction {
        for raw in UInt8(0)..<7 where self.neighbor(origin, Direction(unchecked: raw)) == neighbor {
            return Direction(unchecked: raw)
        }
        return .invalid
    }
}
