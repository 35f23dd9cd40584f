/// Parents and children (`cellToParent`, `cellToChildren`, `cellToCenterChild`).
extension H3Cell {
    /// The ancestor of this cell at a coarser (or the same) resolution.
    ///
    /// - Throws: ``H3Error/resolutionMismatch`` when `parentResolution` is finer than the cell's.
    public func parent(at parentResolution: H3Resolution) throws(H3Error) -> H3Cell {
        let childRes = resolution.rawValue
        let parentRes = parentResolution.rawValue
        guard parentRes <= childRes else { throw .resolutionMismatch }
        var h = H3IndexBits.setResolution(rawValue, parentRes)
        for r in stride(from: parentRes + 1, through: childRes, by: 1) { h = H3IndexBits.setDigit(h, r, .invalid) }
        return H3Cell(unchecked: h)
    }

    /// The number of descendants at a finer (or the same) resolution: 7ⁿ for a hexagon,
    /// 1 + 5·(7ⁿ − 1)/6 for a pentagon, n the difference in resolution.
    ///
    /// - Throws: ``H3Error/resolutionDomain`` when `childResolution` is coarser than the cell's.
    public func childrenCount(at childResolution: H3Resolution) throws(H3Error) -> Int64 {
        let n = childResolution.rawValue - resolution.rawValue
        guard n >= 0 else { throw .resolutionDomain }
        var p: Int64 = 1
        for _ in 0..<n { p *= 7 }
        return isPentagon ? 1 + 5 * (p - 1) / 6 : p
    }

    /// All descendants at a finer (or the same) resolution, in ascending index order.
    ///
    /// - Throws: ``H3Error/resolutionDomain`` when `childResolution` is coarser than the cell's.
    /// - Complexity: O(7ⁿ), n the difference in resolution; mind the size (7⁵ = 16,807).
    public func children(at childResolution: H3Resolution) throws(H3Error) -> [H3Cell] {
        let count = try childrenCount(at: childResolution)
        var out: [H3Cell] = []
        out.reserveCapacity(Int(count))
        let target = childResolution.rawValue
        // depth-first with digits in ascending order gives ascending indexes; below a
        // pentagon, the chain of centre children stays a pentagon and skips digit 1
        func descend(_ h: UInt64, _ res: Int, _ pentagon: Bool) {
            if res == target {
                out.append(H3Cell(unchecked: h))
                return
            }
            let next = res + 1
            let base = H3IndexBits.setResolution(h, next)
            for d in UInt8(0)...6 {
                if pentagon && d == Direction.kAxes.rawValue { continue }
                descend(H3IndexBits.setDigit(base, next, Direction(unchecked: d)), next, pentagon && d == 0)
            }
        }
        descend(rawValue, resolution.rawValue, isPentagon)
        return out
    }

    /// The descendant at `childResolution` that shares this cell's centre.
    ///
    /// - Throws: ``H3Error/resolutionDomain`` when `childResolution` is coarser than the cell's.
    public func centerChild(at childResolution: H3Resolution) throws(H3Error) -> H3Cell {
        let childRes = childResolution.rawValue
        guard childRes >= resolution.rawValue else { throw .resolutionDomain }
        var h = H3IndexBits.setResolution(rawValue, childRes)
        for r in stride(from: resolution.rawValue + 1, through: childRes, by: 1) { h = H3IndexBits.setDigit(h, r, .center) }
        return H3Cell(unchecked: h)
    }

    /// The position of this cell among its ancestor's descendants at its own resolution, in
    /// the ascending order of ``children(at:)`` (H3's `cellToChildPos`).
    ///
    /// - Throws: ``H3Error/resolutionMismatch`` when `parentResolution` is finer than the cell's.
    /// - Complexity: O(resolution difference).
    public func childPosition(in parentResolution: H3Resolution) throws(H3Error) -> Int64 {
        let parent = try parent(at: parentResolution)
        let childRes = resolution.rawValue
        var position: Int64 = 0
        // below a pentagon, each level's first child (digit 0) is a pentagon with 1 + 5(7ⁿ − 1)/6
        // descendants and digit 1 is deleted; once off the pentagon, plain base 7
        var onPentagon = parent.isPentagon
        var width: Int64 = Self.power7(childRes - parentResolution.rawValue)
        for res in stride(from: parentResolution.rawValue + 1, through: childRes, by: 1) {
            width /= 7
            let digit = Int64(H3IndexBits.digit(rawValue, res).rawValue)
            if onPentagon {
                if digit != 0 {
                    position += 1 + 5 * (width - 1) / 6 + (digit - 2) * width
                    onPentagon = false
                }
            } else {
                position += digit * width
            }
        }
        return position
    }

    /// The descendant of `parent` at `resolution` whose ``childPosition(in:)`` is `position`
    /// (H3's `childPosToCell`).
    ///
    /// - Throws: ``H3Error/resolutionMismatch`` when `resolution` is coarser than the parent's;
    ///   ``H3Error/domain`` when `position` is negative or not below
    ///   `parent.childrenCount(at: resolution)`.
    /// - Complexity: O(resolution difference).
    public init(childPosition position: Int64, of parent: H3Cell, at resolution: H3Resolution) throws(H3Error) {
        let parentRes = parent.resolution.rawValue
        let offset = resolution.rawValue - parentRes
        guard offset >= 0 else { throw .resolutionMismatch }
        guard position >= 0, position < (try parent.childrenCount(at: resolution)) else { throw .domain }
        var h = H3IndexBits.setResolution(parent.rawValue, resolution.rawValue)
        var index = position
        var onPentagon = parent.isPentagon
        for level in stride(from: 1, through: offset, by: 1) {
            let width = Self.power7(offset - level)
            var digit: Int64
            if onPentagon {
                let pentagonWidth = 1 + 5 * (width - 1) / 6
                if index < pentagonWidth {
                    digit = 0
                } else {
                    index -= pentagonWidth
                    onPentagon = false
                    digit = index / width + 2
                    index %= width
                }
            } else {
                digit = index / width
                index %= width
            }
            h = H3IndexBits.setDigit(h, parentRes + level, Direction(unchecked: UInt8(digit)))
        }
        self.init(unchecked: h)
    }

    /// 7ⁿ for n in 0...15.
    @inline(__always) static func power7(_ n: Int) -> Int64 {
        var p: Int64 = 1
        for _ in 0..<n { p *= 7 }
        return p
    }

    /// The fewest cells that cover exactly what `cells` cover: every complete set of siblings
    /// (7, or 6 under a pentagon) replaced by its parent, repeatedly (H3's `compactCells`).
    /// Ascending.
    ///
    /// H3 returns the cells in an order it does not specify, and on duplicates or mixed
    /// resolutions either an error or an unusable set; here both are an error.
    ///
    /// - Throws: ``H3Error/duplicateInput`` when a cell appears twice;
    ///   ``H3Error/resolutionMismatch`` when the cells are not all of one resolution.
    /// - Complexity: O(n) expected (hashing per level), plus the final sort.
    public static func compact(_ cells: some Sequence<H3Cell>) throws(H3Error) -> [H3Cell] {
        var level = Array(cells)
        guard let first = level.first else { return [] }
        let res = first.resolution
        guard level.allSatisfy({ $0.resolution == res }) else { throw .resolutionMismatch }
        guard Set(level).count == level.count else { throw .duplicateInput }
        var out: [H3Cell] = []
        var r = res.rawValue
        while r > 0 && !level.isEmpty {
            let parentRes = H3Resolution(unchecked: r - 1)
            var siblings: [H3Cell: Int] = [:]
            for cell in level { siblings[try! cell.parent(at: parentRes), default: 0] += 1 }
            var next: [H3Cell] = []
            for cell in level {
                let parent = try! cell.parent(at: parentRes)
                switch siblings[parent]! {
                case parent.isPentagon ? 6 : 7:
                    next.append(parent)
                    siblings[parent] = 0  // moved up: its other children are covered by it
                case 0:
                    break
                default:
                    out.append(cell)
                }
            }
            level = next
            r -= 1
        }
        out += level
        return out.sorted()
    }

    /// Every descendant at `resolution` of each cell of a compacted set, in the set's order and
    /// each cell's children ascending (H3's `uncompactCells`).
    ///
    /// - Throws: ``H3Error/resolutionMismatch`` when a cell is finer than `resolution`.
    public static func uncompact(_ cells: some Sequence<H3Cell>, to resolution: H3Resolution) throws(H3Error) -> [H3Cell] {
        var out: [H3Cell] = []
        for cell in cells {
            guard cell.resolution <= resolution else { throw .resolutionMismatch }
            out += try cell.children(at: resolution)
        }
        return out
    }

    /// How many cells ``uncompact(_:to:)`` gives (H3's `uncompactCellsSize`).
    ///
    /// - Throws: ``H3Error/resolutionMismatch`` when a cell is finer than `resolution`.
    public static func uncompactCount(_ cells: some Sequence<H3Cell>, to resolution: H3Resolution) throws(H3Error) -> Int64 {
        var count: Int64 = 0
        for cell in cells {
            guard cell.resolution <= resolution else { throw .resolutionMismatch }
            count += try cell.childrenCount(at: resolution)
        }
        return count
    }
}
