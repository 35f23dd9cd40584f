/// Grid traversal: neighbours and `gridDisk`.
extension H3Cell {
    /// The largest `k` accepted by ``gridDisk(k:)`` and the other ring and disk functions
    /// (``gridRing(k:)``, ``gridDiskDistances(k:)``, …): 3,003,001 cells, about 24 MB.
    public static let maxGridDiskK = 1000

    /// All cells within grid distance `k` of this one, this cell first (H3's `gridDisk`).
    ///
    /// The order is H3 4.5.0's: rings outward in a spiral, or, when a pentagon is within
    /// reach, the order of its hash-set fallback (zero slots removed). H3 documents the order
    /// as unspecified; compare as sets.
    ///
    /// - Parameter k: grid distance, 0...``maxGridDiskK``.
    /// - Throws: ``H3Error/kDomain`` when `k` is out of range.
    /// - Complexity: O(k²) cells.
    public func gridDisk(k: Int) throws(H3Error) -> [H3Cell] {
        guard k >= 0, k <= H3Cell.maxGridDiskK else { throw .kDomain }
        let maxIdx = 3 * k * (k + 1) + 1
        if let spiral = try? GridTraversal.diskSpiral(rawValue, k: k, capacity: maxIdx) {
            return spiral.map { H3Cell(unchecked: $0) }
        }
        var slots = [UInt64](repeating: 0, count: maxIdx)
        var distances = [Int](repeating: 0, count: maxIdx)
        GridTraversal.diskHashed(rawValue, k: k, slots: &slots, distances: &distances, curK: 0)
        return slots.compactMap { $0 == 0 ? nil : H3Cell(unchecked: $0) }
    }
}

/// H3's neighbour stepping (`h3NeighborRotations`) and the two `gridDisk` algorithms.
enum GridTraversal {
    /// Ring directions in spiral order, starting from the j axis.
    static let directions: [Direction] = [.jAxes, .jkAxes, .kAxes, .ikAxes, .iAxes, .ijAxes]
    /// The step from one ring to the next.
    static let nextRing = Direction.iAxes

    enum StepFailure: Error {
        /// Moving in the deleted k direction of a pentagon.
        case pentagon
        /// Digits that valid cells do not have.
        case failed
    }

    /// The neighbour of `origin` in direction `dir` after `rotations` ccw 60° turns of the
    /// direction; updates `rotations` for the frame of the neighbour.
    ///
    /// Most steps stay inside a hexagon base cell: the digits change from the finest up until
    /// one absorbs the move, and the base cell and the frame stay. That case is inlined here,
    /// one table load a digit; the rest (a pentagon base cell, a move into another base cell,
    /// digits valid cells do not have) goes to H3's full procedure. gridRing at k 2 spent 62 %
    /// of its time in this function (perf, res 9), most of it on that case.
    @inline(__always)
    static func neighbor(_ origin: UInt64, _ direction: Direction, rotations: inout Int) -> Result<UInt64, StepFailure> {
        if !BaseCells.isPentagon(H3IndexBits.baseCell(origin)) {
            let turns = rotations % 6
            let dir = Int(DigitSteps.rotated(direction, ccw: turns))
            if let next = DigitSteps.table.withUnsafeBufferPointer({ stepInsideBaseCell(origin, dir, $0) }) {
                rotations = turns
                return .success(next)
            }
        }
        return neighborAcrossBaseCells(origin, direction, rotations: &rotations)
    }

    /// The neighbour of `origin` in direction `dir` (a raw digit, in origin's frame) when it
    /// lies in the same base cell: the digits from the finest up until one absorbs the move
    /// (``DigitSteps``); nil when the move reaches the base cell or meets digit 7. Only for a
    /// hexagon base cell, where the frame does not turn.
    @inline(__always)
    static func stepInsideBaseCell(_ origin: UInt64, _ direction: Int, _ table: UnsafeBufferPointer<UInt8>) -> UInt64? {
        var current = origin
        var dir = direction
        var r = H3IndexBits.resolution(origin)
        while r >= 1 {
            let shift = H3IndexBits.digitOffset(r)
            let digit = Int(truncatingIfNeeded: (current &>> shift) & H3IndexBits.digitMask)
            guard digit != 7 else { return nil }
            let step = table[DigitSteps.index(resolution: r, digit: digit, direction: dir)]
            current = (current & ~(H3IndexBits.digitMask &<< shift)) | (UInt64(step & 7) &<< shift)
            dir = Int(step &>> 3)
            if dir == 0 { return current }
            r -= 1
        }
        return nil
    }

    /// The directions from a cell to its neighbours in the order of gridDisk's spiral at k = 1
    /// (one step along i, then around by `directions`): ij, j, jk, k, ik, i.
    static let oneRingOrder: [Int] = [6, 2, 3, 1, 5, 4]

    /// `origin` and its six neighbours in gridDisk's order (``spiral(_:k:_:)`` at k = 1) when all
    /// seven lie in one hexagon base cell; false (and `ring` unspecified) otherwise, for the
    /// spiral to decide. Inside a hexagon base cell the digits are a regular hex grid in one
    /// frame, so the spiral's cell after steps i then j is the neighbour along ij, and so on;
    /// each is one direct step here, six instead of the spiral's seven, none of them checked
    /// for a pentagon (a hexagon base cell has none). The flood of `polygonToCells` asks this
    /// of every cell it keeps.
    @inline(__always)
    static func oneRingInsideBaseCell(_ origin: UInt64, into ring: inout [UInt64]) -> Bool {
        guard !BaseCells.isPentagon(H3IndexBits.baseCell(origin)) else { return false }
        ring.removeAll(keepingCapacity: true)
        ring.append(origin)
        return DigitSteps.table.withUnsafeBufferPointer { table in
            oneRingOrder.withUnsafeBufferPointer { order in
                for d in order {
                    guard let next = stepInsideBaseCell(origin, d, table) else { return false }
                    ring.append(next)
                }
                return true
            }
        }
    }

    /// H3's `h3NeighborRotations` in full (see ``neighbor(_:_:rotations:)``).
    static func neighborAcrossBaseCells(_ origin: UInt64, _ direction: Direction, rotations: inout Int) -> Result<UInt64, StepFailure> {
        var current = origin
        var dir = direction
        rotations %= 6
        for _ in 0..<rotations { dir = dir.rotated60ccw }

        var newRotations = 0
        let oldBaseCell = H3IndexBits.baseCell(current)

        // adjust the digits and, if needed, the base cell
        var r = H3IndexBits.resolution(current) - 1
        while true {
            if r == -1 {
                current = H3IndexBits.setBaseCell(current, BaseCells.neighbor(oldBaseCell, dir))
                newRotations = BaseCells.neighborRotations(oldBaseCell, dir)
                if H3IndexBits.baseCell(current) == BaseCells.invalid {
                    // the deleted k vertex at base-cell level: this edge borders another neighbour
                    current = H3IndexBits.setBaseCell(current, BaseCells.neighbor(oldBaseCell, .ikAxes))
                    newRotations = BaseCells.neighborRotations(oldBaseCell, .ikAxes)
                    current = H3Digits.rotate60ccw(current)
                    rotations += 1
                }
                break
            }
            let oldDigit = H3IndexBits.digit(current, r + 1)
            if oldDigit == .invalid { return .failure(.failed) }
            let cell = Int(oldDigit.rawValue) * 7 + Int(dir.rawValue)
            let nextDir: Direction
            // (H3 pairs Class III levels with its "II" tables; kept as it is)
            if FaceIJK.isClassIII(r + 1) {
                current = H3IndexBits.setDigit(current, r + 1, Direction(unchecked: newDigitIITable[cell]))
                nextDir = Direction(unchecked: newAdjustmentIITable[cell])
            } else {
                current = H3IndexBits.setDigit(current, r + 1, Direction(unchecked: newDigitIIITable[cell]))
                nextDir = Direction(unchecked: newAdjustmentIIITable[cell])
            }
            if nextDir == .center { break }
            dir = nextDir
            r -= 1
        }

        let newBaseCell = H3IndexBits.baseCell(current)
        if BaseCells.isPentagon(newBaseCell) {
            var alreadyAdjustedKSubsequence = false
            // force rotation out of the missing k-axes sub-sequence
            if H3IndexBits.leadingNonZeroDigit(current) == .kAxes {
                if oldBaseCell != newBaseCell {
                    // entered the deleted k sub-sequence from another base cell
                    if BaseCells.isCwOffset(newBaseCell, face: BaseCells.data[oldBaseCell].homeFace) {
                        current = H3Digits.rotate60cw(current)
                    } else {
                        current = H3Digits.rotate60ccw(current)
                    }
                    alreadyAdjustedKSubsequence = true
                } else {
                    // entered it from within the same pentagon base cell (the origin's leading
                    // digit is read only here: reading it for every step, as H3 does, was a
                    // loop over the digits in each of the flood's 7 steps a cell)
                    switch H3IndexBits.leadingNonZeroDigit(origin) {
                    case .center:
                        return .failure(.pentagon)
                    case .jkAxes:
                        current = H3Digits.rotate60ccw(current)
                        rotations += 1
                    case .ikAxes:
                        current = H3Digits.rotate60cw(current)
                        rotations += 5
                    default:
                        return .failure(.failed)
                    }
                }
            }
            for _ in 0..<newRotations { current = H3Digits.rotatePentagon60ccw(current) }
            // the orientation of differing base cells
            if oldBaseCell != newBaseCell {
                if BaseCells.isPolarPentagon(newBaseCell) {
                    if oldBaseCell != 118 && oldBaseCell != 8 && H3IndexBits.leadingNonZeroDigit(current) != .jkAxes {
                        rotations += 1
                    }
                } else if H3IndexBits.leadingNonZeroDigit(current) == .ikAxes && !alreadyAdjustedKSubsequence {
                    // distortion of the 5 neighbour by the deleted k sub-sequence
                    rotations += 1
                }
            }
        } else {
            for _ in 0..<newRotations { current = H3Digits.rotate60ccw(current) }
        }
        rotations = (rotations + newRotations) % 6
        return .success(current)
    }

    /// `neighbor(_:_:rotations:)` with its failure as an ``H3Error``.
    @inline(__always) static func step(_ origin: UInt64, _ direction: Direction, rotations: inout Int) throws(H3Error) -> UInt64 {
        switch neighbor(origin, direction, rotations: &rotations) {
        case .success(let next): return next
        case .failure(.pentagon): throw .pentagon
        case .failure(.failed): throw .failed
        }
    }

    @inline(__always) static func isPentagon(_ h: UInt64) -> Bool {
        BaseCells.isPentagon(H3IndexBits.baseCell(h)) && H3IndexBits.leadingNonZeroDigit(h) == .center
    }

    /// The spiral algorithm (`gridDiskDistancesUnsafe`): ring r fills positions 3r(r−1)+1 ...
    /// 3r(r+1), so the position gives the distance.
    ///
    /// - Throws: ``H3Error/pentagon`` when a pentagon is met, which makes the spiral
    ///   unreliable; ``H3Error/failed`` when a step fails otherwise.
    static func diskSpiral(_ start: UInt64, k: Int, capacity: Int) throws(H3Error) -> [UInt64] {
        var out: [UInt64] = []
        out.reserveCapacity(capacity)
        try spiral(start, k: k) { out.append($0) }
        return out
    }

    /// The cells of the spiral in order, the origin first, to `emit` (no array: polygonToCells
    /// walks the one-ring of every cell it finds). When it throws, some cells have been emitted.
    @inline(__always)
    static func spiral(_ start: UInt64, k: Int, _ emit: (UInt64) -> Void) throws(H3Error) {
        var origin = start
        emit(origin)
        if isPentagon(origin) { throw .pentagon }
        var ring = 1
        var direction = 0
        var i = 0
        var rotations = 0
        while ring <= k {
            if direction == 0 && i == 0 {
                origin = try step(origin, nextRing, rotations: &rotations)
                if isPentagon(origin) { throw .pentagon }
            }
            origin = try step(origin, directions[direction], rotations: &rotations)
            emit(origin)
            i += 1
            if i == ring {
                i = 0
                direction += 1
                if direction == 6 {
                    direction = 0
                    ring += 1
                }
            }
            if isPentagon(origin) { throw .pentagon }
        }
    }

    /// The recursive fallback (`_gridDiskDistancesInternal`): `slots` is an open-addressing
    /// hash set keyed by `index % slots.count`, so the output order matches the C library's.
    static func diskHashed(_ origin: UInt64, k: Int, slots: inout [UInt64], distances: inout [Int], curK: Int) {
        let maxIdx = UInt64(slots.count)
        var off = Int(origin % maxIdx)
        while slots[off] != 0 && slots[off] != origin { off = (off + 1) % slots.count }
        // a duplicate reached again on a longer path needs no more work
        if slots[off] == origin && distances[off] <= curK { return }
        slots[off] = origin
        distances[off] = curK
        if curK >= k { return }
        for dir in directions {
            var rotations = 0
            if case .success(let next) = neighbor(origin, dir, rotations: &rotations) {
                diskHashed(next, k: k, slots: &slots, distances: &distances, curK: curK + 1)
            }
        }
    }
}

/// H3's four neighbour tables (`NEW_DIGIT_II`, `NEW_ADJUSTMENT_II`, `NEW_DIGIT_III`,
/// `NEW_ADJUSTMENT_III`) as one: each byte is the new digit plus the carried direction times 8,
/// the Class II pair first. H3 reads the "II" pair at Class III resolutions (kept as it is, see
/// ``GridTraversal/neighborAcrossBaseCells(_:_:rotations:)``).
enum DigitSteps {
    static let table: [UInt8] = {
        var table = [UInt8](repeating: 0, count: 2 * 49)
        for cell in 0..<49 {
            table[cell] = newDigitIITable[cell] | newAdjustmentIITable[cell] << 3
            table[49 + cell] = newDigitIIITable[cell] | newAdjustmentIIITable[cell] << 3
        }
        return table
    }()

    /// The entry for moving `direction` from `digit` at digit resolution `r`.
    @inline(__always) static func index(resolution r: Int, digit: Int, direction: Int) -> Int {
        (FaceIJK.isClassIII(r) ? 0 : 49) &+ digit &* 7 &+ direction
    }

    /// `direction` turned `turns` (0...5) times 60° counter-clockwise.
    @inline(__always) static func rotated(_ direction: Direction, ccw turns: Int) -> UInt8 {
        var d = direction
        for _ in 0..<turns { d = d.rotated60ccw }
        return d.rawValue
    }
}
