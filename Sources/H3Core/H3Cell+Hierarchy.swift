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
    /// - Complexity: O(n): one radix sort of the bits that differ (7 + 3 · resolution); then
    ///   each level is one pass, because in ascending order a parent's children at one
    ///   resolution lie together (they differ only in the last digit). A dictionary of siblings
    ///   per level made this 5–9× slower than polars-h3 (h3o) per cell, and Swift's comparison
    ///   sort in its place still 6× (111 ns an input cell, `make bench-h3api`).
    public static func compact(_ cells: some Sequence<H3Cell>) throws(H3Error) -> [H3Cell] {
        try compact(Array(cells))
    }

    /// The same for an array: the one callers of an array get, compiled for the
    /// concrete type (the generic body reads each element through a witness table).
    public static func compact(_ cells: [H3Cell]) throws(H3Error) -> [H3Cell] {
        var level = cells.map(\.rawValue)
        guard let first = level.first else { return [] }
        let res = H3IndexBits.resolution(first)
        guard level.allSatisfy({ H3IndexBits.resolution($0) == res }) else { throw .resolutionMismatch }
        // cells of one resolution differ only in the base cell and their `res` digits
        IndexRadixSort.sort(&level, bits: H3IndexBits.digitOffset(res)..<(H3IndexBits.baseCellOffset + 7))
        for i in level.indices.dropFirst() where level[i] == level[i - 1] { throw .duplicateInput }
        var out: [UInt64] = []
        var next: [UInt64] = []
        var r = res
        while r > 0 && !level.isEmpty {
            // siblings share every bit but digit r: set it to 7 and they share a key, which is
            // the parent's index but for its resolution field
            let digitBits = H3IndexBits.digitMask << H3IndexBits.digitOffset(r)
            next.removeAll(keepingCapacity: true)
            var i = 0
            while i < level.count {
                let key = level[i] | digitBits
                var j = i + 1
                while j < level.count && level[j] | digitBits == key { j += 1 }
                let parent = H3IndexBits.setResolution(key, r - 1)
                if j - i == (GridTraversal.isPentagon(parent) ? 6 : 7) {
                    next.append(parent)
                } else {
                    out.append(contentsOf: level[i..<j])
                }
                i = j
            }
            swap(&level, &next)
            r -= 1
        }
        out += level
        out.sort()
        return out.map { H3Cell(unchecked: $0) }
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

/// A least-significant-digit radix sort of 64-bit indexes on a range of their bits (the bits
/// outside it must be equal in every value), 8 bits a pass.
enum IndexRadixSort {
    static func sort(_ values: inout [UInt64], bits: Range<UInt64>) {
        guard values.count > 32 else {
            values.sort()
            return
        }
        var other = [UInt64](repeating: 0, count: values.count)
        var shift = bits.lowerBound
        var counts = [Int](repeating: 0, count: 257)
        while shift < bits.upperBound {
            for i in counts.indices { counts[i] = 0 }
            values.withUnsafeBufferPointer { src in
                counts.withUnsafeMutableBufferPointer { c in
                    for v in src { c[Int((v >> shift) & 0xFF) + 1] += 1 }
                    for i in 1...256 { c[i] += c[i - 1] }
                    other.withUnsafeMutableBufferPointer { dst in
                        for v in src {
                            let d = Int((v >> shift) & 0xFF)
                            dst[c[d]] = v
                            c[d] += 1
                        }
                    }
                }
            }
            swap(&values, &other)
            shift += 8
        }
    }
}
