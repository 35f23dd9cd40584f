/// Grid distances, paths, rings and the `gridDisk` variants, after H3 4.5.0's `localij.c`
/// (`gridDistance`, `gridPathCells`) and `algos.c` (the rest). The unsafe variants fail with
/// ``H3Error/pentagon`` wherever a pentagon is near; the others fall back to H3's slower
/// search, whose output order they keep.
extension H3Cell {
    // MARK: distance and path

    /// The number of steps between this cell and `other` on the grid (H3's `gridDistance`).
    ///
    /// - Throws: ``H3Error/resolutionMismatch`` for cells of different resolutions;
    ///   ``H3Error/failed`` when the cells are too far apart or across a pentagon for H3's local
    ///   coordinates (see ``localIJ(origin:)``).
    /// - Complexity: O(resolution).
    public func gridDistance(to other: H3Cell) throws(H3Error) -> Int {
        if let distance = LocalIJK.distanceInOneHexagonBaseCell(rawValue, other.rawValue) { return distance }
        let a = try LocalIJK.coordinates(of: rawValue, origin: rawValue)
        let b = try LocalIJK.coordinates(of: other.rawValue, origin: rawValue)
        return CoordIJK.distance(a, b)
    }

    /// How many cells ``gridPathCells(to:)`` gives: the grid distance plus one (H3's
    /// `gridPathCellsSize`).
    ///
    /// - Throws: as ``gridDistance(to:)``.
    public func gridPathCellsCount(to end: H3Cell) throws(H3Error) -> Int {
        try gridDistance(to: end) + 1
    }

    /// The cells of a shortest grid path from this cell to `end`, both included, each a
    /// neighbour of the one before (H3's `gridPathCells`, its cells in its order).
    ///
    /// The line is drawn in local IJK coordinates anchored at this cell, or, where that fails,
    /// at `end` and reversed, as H3 4.5.0 does; H3 does not promise the same path across versions.
    ///
    /// - Throws: as ``gridDistance(to:)``; ``H3Error/pentagon`` or ``H3Error/failed`` when the
    ///   line crosses pentagon distortion from both ends (the error of the first attempt).
    /// - Complexity: O(distance × resolution).
    public func gridPathCells(to end: H3Cell) throws(H3Error) -> [H3Cell] {
        let distance = try gridDistance(to: end)
        if distance == 0 { return [self] }
        let forward: [UInt64]
        do throws(H3Error) {
            forward = try GridPath.interpolate(from: rawValue, to: end.rawValue, distance: distance)
        } catch {
            guard let backward = try? GridPath.interpolate(from: end.rawValue, to: rawValue, distance: distance) else {
                throw error
            }
            return backward.reversed().map { H3Cell(unchecked: $0) }
        }
        return forward.map { H3Cell(unchecked: $0) }
    }

    // MARK: rings

    /// The cells at exactly grid distance `k` from this one (H3's `gridRing`): `6k` cells, or
    /// fewer when a pentagon is within reach; `[self]` for k = 0.
    ///
    /// The order is H3 4.5.0's: around the ring from the cell `k` steps in the i direction, or,
    /// when a pentagon is near, the order of its hash-set fallback. H3 documents it as
    /// unspecified; compare as sets.
    ///
    /// - Parameter k: grid distance, 0...``maxGridDiskK``.
    /// - Throws: ``H3Error/kDomain`` when `k` is out of range.
    /// - Complexity: O(k) cells; O(k²) when a pentagon is near.
    public func gridRing(k: Int) throws(H3Error) -> [H3Cell] {
        guard k >= 0, k <= H3Cell.maxGridDiskK else { throw .kDomain }
        if let ring = try? GridTraversal.ringSpiral(rawValue, k: k) { return ring }
        if k == 0 { return [self] }
        let (slots, distances) = GridTraversal.diskHashed(rawValue, k: k)
        return zip(slots, distances).compactMap { $0 != 0 && $1 == k ? H3Cell(unchecked: $0) : nil }
    }

    /// The cells at exactly grid distance `k`, by the fast walk that cannot pass a pentagon
    /// (H3's `gridRingUnsafe`): `6k` cells in H3's order (`[self]` for k = 0).
    ///
    /// - Parameter k: grid distance, 0...``maxGridDiskK``.
    /// - Throws: ``H3Error/kDomain`` when `k` is out of range; ``H3Error/pentagon`` when a
    ///   pentagon lies on or inside the ring.
    /// - Complexity: O(k).
    public func gridRingUnsafe(k: Int) throws(H3Error) -> [H3Cell] {
        guard k >= 0, k <= H3Cell.maxGridDiskK else { throw .kDomain }
        return try GridTraversal.ringSpiral(rawValue, k: k)
    }

    // MARK: disks

    /// All cells within grid distance `k`, by the spiral that cannot pass a pentagon (H3's
    /// `gridDiskUnsafe`): this cell first, then ring by ring.
    ///
    /// - Parameter k: grid distance, 0...``maxGridDiskK``.
    /// - Throws: ``H3Error/kDomain`` when `k` is out of range; ``H3Error/pentagon`` when a
    ///   pentagon is within distance `k`.
    /// - Complexity: O(k²).
    public func gridDiskUnsafe(k: Int) throws(H3Error) -> [H3Cell] {
        guard k >= 0, k <= H3Cell.maxGridDiskK else { throw .kDomain }
        return try GridTraversal.diskSpiral(rawValue, k: k, capacity: 3 * k * (k + 1) + 1).map { H3Cell(unchecked: $0) }
    }

    /// All cells within grid distance `k`, each with its distance (H3's `gridDiskDistances`):
    /// the cells of ``gridDisk(k:)`` in the same order.
    ///
    /// - Parameter k: grid distance, 0...``maxGridDiskK``.
    /// - Throws: ``H3Error/kDomain`` when `k` is out of range.
    /// - Complexity: O(k²) cells; more when a pentagon is within reach (see ``gridDisk(k:)``).
    public func gridDiskDistances(k: Int) throws(H3Error) -> [(cell: H3Cell, distance: Int)] {
        guard k >= 0, k <= H3Cell.maxGridDiskK else { throw .kDomain }
        if let spiral = try? gridDiskDistancesUnsafe(k: k) { return spiral }
        return try gridDiskDistancesSafe(k: k)
    }

    /// All cells within grid distance `k` with their distances, by H3's search that handles
    /// pentagons, always (H3's `gridDiskDistancesSafe`; the order of its hash set).
    ///
    /// - Parameter k: grid distance, 0...``maxGridDiskK``.
    /// - Throws: ``H3Error/kDomain`` when `k` is out of range.
    /// - Complexity: O(k²) cells, each reached up to 6ᵏ times in the worst case near a pentagon.
    public func gridDiskDistancesSafe(k: Int) throws(H3Error) -> [(cell: H3Cell, distance: Int)] {
        guard k >= 0, k <= H3Cell.maxGridDiskK else { throw .kDomain }
        let (slots, distances) = GridTraversal.diskHashed(rawValue, k: k)
        return zip(slots, distances).compactMap { $0 == 0 ? nil : (H3Cell(unchecked: $0), $1) }
    }

    /// All cells within grid distance `k` with their distances, by the spiral that cannot pass a
    /// pentagon (H3's `gridDiskDistancesUnsafe`): this cell at 0, then ring by ring.
    ///
    /// - Parameter k: grid distance, 0...``maxGridDiskK``.
    /// - Throws: ``H3Error/kDomain`` when `k` is out of range; ``H3Error/pentagon`` when a
    ///   pentagon is within distance `k`.
    /// - Complexity: O(k²).
    public func gridDiskDistancesUnsafe(k: Int) throws(H3Error) -> [(cell: H3Cell, distance: Int)] {
        let cells = try gridDiskUnsafe(k: k)
        // ring r takes positions 3r(r-1)+1 ... 3r(r+1) of the spiral
        var out: [(cell: H3Cell, distance: Int)] = []
        out.reserveCapacity(cells.count)
        var ring = 0
        for (position, cell) in cells.enumerated() {
            if position > 3 * ring * (ring + 1) { ring += 1 }
            out.append((cell, ring))
        }
        return out
    }

    /// ``gridDiskUnsafe(k:)`` of each cell in turn (H3's `gridDisksUnsafe`, whose output is
    /// these disks one after the other).
    ///
    /// - Parameters:
    ///   - cells: the centres.
    ///   - k: grid distance, 0...``maxGridDiskK``.
    /// - Throws: ``H3Error/kDomain`` when `k` is out of range; ``H3Error/pentagon`` when a
    ///   pentagon is within distance `k` of any of the cells.
    /// - Complexity: O(cells × k²).
    public static func gridDisksUnsafe(_ cells: [H3Cell], k: Int) throws(H3Error) -> [[H3Cell]] {
        guard k >= 0, k <= H3Cell.maxGridDiskK else { throw .kDomain }
        var out: [[H3Cell]] = []
        out.reserveCapacity(cells.count)
        for cell in cells { out.append(try cell.gridDiskUnsafe(k: k)) }
        return out
    }

    // MARK: sizes

    /// The most cells a disk of radius `k` can hold: 3k(k+1)+1 (H3's `maxGridDiskSize`), or,
    /// from k = 13,780,510 on, the number of cells of resolution 15, which no disk exceeds.
    ///
    /// - Parameter k: grid distance, 0 to `Int32.max` (H3's `int`).
    /// - Throws: ``H3Error/domain`` when `k` is out of that range.
    public static func maxGridDiskSize(k: Int) throws(H3Error) -> Int64 {
        guard k >= 0, k <= Int(Int32.max) else { throw .domain }
        // past this k the formula counts more cells than the finest resolution has
        if k >= 13_780_510 { return H3Resolution.finest.cellCount }
        return 3 * Int64(k) * (Int64(k) + 1) + 1
    }

    /// The most cells a ring of radius `k` can hold: 6k, or 1 for k = 0 (H3's `maxGridRingSize`).
    ///
    /// - Parameter k: grid distance, 0 to `Int32.max` (H3's `int`).
    /// - Throws: ``H3Error/domain`` when `k` is out of that range.
    public static func maxGridRingSize(k: Int) throws(H3Error) -> Int64 {
        guard k >= 0, k <= Int(Int32.max) else { throw .domain }
        return k == 0 ? 1 : 6 * Int64(k)
    }
}

extension GridTraversal {
    /// The ring walk (`gridRingUnsafe`): `k` steps out in the i direction, then `k` steps along
    /// each of the six sides.
    ///
    /// - Throws: ``H3Error/pentagon`` when a pentagon is met or the walk does not close (the
    ///   distortion of a pentagon inside the ring).
    ///
    /// The cells are written as `H3Cell`s (a `UInt64` each) into one array reserved once: a
    /// one-element literal grown by `reserveCapacity`, then mapped to the public type, made
    /// three arrays a ring (with `neighbor` reading the leading digit only where needed:
    /// 400 → 295 ns a cell at k = 2, polars-h3 590 in a loaded run).
    static func ringSpiral(_ start: UInt64, k: Int) throws(H3Error) -> [H3Cell] {
        if k == 0 { return [H3Cell(unchecked: start)] }
        if let ring = ringInsideBaseCell(start, k: k) { return ring }
        if isPentagon(start) { throw .pentagon }
        var origin = start
        var rotations = 0
        for _ in 0..<k {
            origin = try step(origin, nextRing, rotations: &rotations)
            if isPentagon(origin) { throw .pentagon }
        }
        let first = origin
        var out: [H3Cell] = []
        out.reserveCapacity(6 * k)
        out.append(H3Cell(unchecked: origin))
        for direction in 0..<6 {
            for position in 0..<k {
                origin = try step(origin, directions[direction], rotations: &rotations)
                // the walk ends on the first cell again; it is not written twice
                if position != k - 1 || direction != 5 {
                    out.append(H3Cell(unchecked: origin))
                    if isPentagon(origin) { throw .pentagon }
                }
            }
        }
        guard origin == first else { throw .pentagon }
        return out
    }

    /// ``ringSpiral(_:k:)`` when the whole walk stays in the start's hexagon base cell: the
    /// same steps, as there the frame never turns and no pentagon can be met, without the
    /// frame's bookkeeping and the pentagon checks (gridRing at k 2, callgrind: 2,170 → 1,490
    /// instructions a ring); nil when a step would leave the base cell.
    static func ringInsideBaseCell(_ start: UInt64, k: Int) -> [H3Cell]? {
        guard k > 0, !BaseCells.isPentagon(H3IndexBits.baseCell(start)) else { return nil }
        return DigitSteps.table.withUnsafeBufferPointer { table -> [H3Cell]? in
            var origin = start
            for _ in 0..<k {
                guard let next = stepInsideBaseCell(origin, Int(nextRing.rawValue), table) else { return nil }
                origin = next
            }
            let first = origin
            var out: [H3Cell] = []
            out.reserveCapacity(6 * k)
            out.append(H3Cell(unchecked: origin))
            for direction in 0..<6 {
                let d = Int(directions[direction].rawValue)
                for position in 0..<k {
                    guard let next = stepInsideBaseCell(origin, d, table) else { return nil }
                    origin = next
                    // the walk ends on the first cell again; it is not written twice
                    if position != k - 1 || direction != 5 { out.append(H3Cell(unchecked: origin)) }
                }
            }
            return origin == first ? out : nil
        }
    }

    /// `diskHashed` into fresh slots sized for radius `k`: the hash set and the distances.
    static func diskHashed(_ origin: UInt64, k: Int) -> (slots: [UInt64], distances: [Int]) {
        let maxIdx = 3 * k * (k + 1) + 1
        var slots = [UInt64](repeating: 0, count: maxIdx)
        var distances = [Int](repeating: 0, count: maxIdx)
        diskHashed(origin, k: k, slots: &slots, distances: &distances, curK: 0)
        return (slots, distances)
    }
}

/// `gridPathCells`'s line drawing in local IJK coordinates (H3 4.5.0 `localij.c`).
enum GridPath {
    /// The cells of the line from `start` to `end` in the local frame of `start`
    /// (`gridPathCellsInterpolate`); `distance` is their grid distance, at least 1.
    static func interpolate(from start: UInt64, to end: UInt64, distance: Int) throws(H3Error) -> [UInt64] {
        var startIJK = try LocalIJK.coordinates(of: start, origin: start)
        var endIJK = try LocalIJK.coordinates(of: end, origin: start)
        startIJK = cube(startIJK)
        endIJK = cube(endIJK)
        let invDistance = 1.0 / Double(distance)
        let iStep = Double(endIJK.i - startIJK.i) * invDistance
        let jStep = Double(endIJK.j - startIJK.j) * invDistance
        let kStep = Double(endIJK.k - startIJK.k) * invDistance
        var out: [UInt64] = []
        out.reserveCapacity(distance + 1)
        for n in 0...distance {
            let t = Double(n)
            let c = cubeRound(Double(startIJK.i) + iStep * t, Double(startIJK.j) + jStep * t, Double(startIJK.k) + kStep * t)
            out.append(try LocalIJK.cell(at: ijk(fromCube: c), origin: start))
        }
        return out
    }

    /// ijk+ to cube coordinates (`ijkToCube`), in H3's order of assignment.
    static func cube(_ c: CoordIJK) -> CoordIJK {
        let i = -c.i + c.k
        let j = c.j - c.k
        return CoordIJK(i, j, -i - j)
    }

    /// Cube to ijk+ coordinates (`cubeToIjk`).
    static func ijk(fromCube c: CoordIJK) -> CoordIJK {
        CoordIJK(-c.i, c.j, 0).normalized
    }

    /// The cube coordinates nearest a point (`cubeRound`): round each, then fix the one that
    /// moved most so that they sum to zero.
    static func cubeRound(_ i: Double, _ j: Double, _ k: Double) -> CoordIJK {
        // C's round(): halves away from zero
        var ri = Int(i.rounded(.toNearestOrAwayFromZero))
        var rj = Int(j.rounded(.toNearestOrAwayFromZero))
        var rk = Int(k.rounded(.toNearestOrAwayFromZero))
        let iDiff = abs(Double(ri) - i)
        let jDiff = abs(Double(rj) - j)
        let kDiff = abs(Double(rk) - k)
        if iDiff > jDiff && iDiff > kDiff {
            ri = -rj - rk
        } else if jDiff > kDiff {
            rj = -ri - rk
        } else {
            rk = -ri - rj
        }
        return CoordIJK(ri, rj, rk)
    }
}
