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
    /// - Complexity: O(n): each level is one pass over its cells into a table of parents
    ///   (open addressing, keyed by the parent, holding which of its 7 child digits are there,
    ///   so a repeated cell is found on the way), one pass over the table, and a radix sort of
    ///   the cells left at that level. A dictionary of siblings per level made this 5–9× slower
    ///   than polars-h3 (h3o) per cell, Swift's comparison sort of the input still 6× (111 ns
    ///   an input cell, `make bench-h3api`), a radix sort of the input 32 ns against
    ///   polars-h3's 17–28; the table needs no sort of the input at all: 10 ns (28 before it, in
    ///   the same session).
    public static func compact(_ cells: some Sequence<H3Cell>) throws(H3Error) -> [H3Cell] {
        try compact(Array(cells))
    }

    /// The same for an array: the one callers of an array get, compiled for the
    /// concrete type (the generic body reads each element through a witness table).
    public static func compact(_ cells: [H3Cell]) throws(H3Error) -> [H3Cell] {
        guard let first = cells.first else { return [] }
        let res = first.resolution.rawValue
        guard cells.allSatisfy({ $0.resolution.rawValue == res }) else { throw .resolutionMismatch }
        var level = cells.map(\.rawValue)
        var table = SiblingTable(capacity: level.count)
        // the cells that stay, one ascending run per level
        var out: [UInt64] = []
        var stay: [UInt64] = []
        var r = res
        while r > 0 && !level.isEmpty {
            let shift = H3IndexBits.digitOffset(r)
            // siblings share every bit but digit r: set it to 7 and they share a key, which is
            // the parent's index but for its resolution field
            let digitBits = H3IndexBits.digitMask << shift
            // only the input can repeat a cell: a parent is made once
            guard table.collect(level, digitShift: shift) else { throw .duplicateInput }
            level.removeAll(keepingCapacity: true)
            stay.removeAll(keepingCapacity: true)
            table.forEach { key, digits in
                let parent = H3IndexBits.setResolution(key, r - 1)
                // all 7 children, or all 6 of a pentagon (no digit 1)
                if digits == 0x7F || (digits == 0x7D && GridTraversal.isPentagon(parent)) {
                    level.append(parent)
                    return
                }
                var rest = digits
                while rest != 0 {
                    let d = UInt64(rest.trailingZeroBitCount)
                    stay.append(key & ~digitBits | d &<< shift)
                    rest &= rest &- 1
                }
            }
            IndexRadixSort.sort(&stay, bits: shift..<(H3IndexBits.baseCellOffset + 7))
            out += stay
            r -= 1
        }
        IndexRadixSort.sort(&level, bits: H3IndexBits.digitOffset(r)..<(H3IndexBits.baseCellOffset + 7))
        out += level
        // ascending runs, one per resolution: the sort merges them
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

/// The parents of one level of ``H3Cell/compact(_:)``: an open-addressing table (linear
/// probing, at most half full, a multiplicative hash) from a parent's key to the set of its
/// child digits present, as 7 bits, with the list of slots in use, so that reading and
/// emptying it cost the parents, not the table (scanning the whole table and the uniqueness
/// checks of an array access per cell took a third of compact's time).
private struct SiblingTable {
    private var keys: [UInt64]
    private var digits: [UInt8]
    private var used: [Int] = []

    init(capacity: Int) {
        var size = 2
        while size < 2 * capacity { size <<= 1 }
        keys = [UInt64](repeating: 0, count: size)
        digits = [UInt8](repeating: 0, count: size)
        used.reserveCapacity(capacity)
    }

    /// Empties the table, then adds each cell of `level` (one resolution, at most the capacity
    /// it was made with) under its parent's key, the cell with digit `shift` set to 7.
    /// - Returns: `false` when a cell is there twice.
    mutating func collect(_ level: [UInt64], digitShift shift: UInt64) -> Bool {
        var size = 2
        var hashShift: UInt64 = 63
        while size < 2 * level.count {
            size <<= 1
            hashShift -= 1
        }
        let mask = size &- 1
        let digitBits = H3IndexBits.digitMask &<< shift
        return keys.withUnsafeMutableBufferPointer { k in
            digits.withUnsafeMutableBufferPointer { d in
                for i in used { k[i] = 0 }
                used.removeAll(keepingCapacity: true)
                for h in level {
                    let key = h | digitBits
                    let bit = UInt8(1) &<< UInt8(truncatingIfNeeded: (h &>> shift) & H3IndexBits.digitMask)
                    var i = Int(truncatingIfNeeded: (key &* 0x9E37_79B9_7F4A_7C15) &>> hashShift)
                    while true {
                        let v = k[i]
                        if v == key {
                            if d[i] & bit != 0 { return false }
                            d[i] |= bit
                            break
                        }
                        if v == 0 {
                            k[i] = key
                            d[i] = bit
                            used.append(i)
                            break
                        }
                        i = (i &+ 1) & mask
                    }
                }
                return true
            }
        }
    }

    /// Each parent key with its child digits, in the order they were first met.
    @inline(__always) func forEach(_ body: (UInt64, UInt8) -> Void) {
        keys.withUnsafeBufferPointer { k in
            digits.withUnsafeBufferPointer { d in
                for i in used { body(k[i], d[i]) }
            }
        }
    }
}

/// A least-significant-digit radix sort of 64-bit indexes on a range of their bits (the bits
/// outside it must be equal in every value).
///
/// Only the bits that differ somewhere in the input are sorted on, in passes of at most 9 bits
/// (11 from 65,536 values on, where the longer count tables pay off), with every pass's counts
/// taken in one scan: for compactCells' sets of 1,000 resolution-9 cells that is 4 scatters of
/// 1,000 values and 5 scans where the 8-bit passes over the 34 bits of base cell and digits
/// took 5 scatters and 10 scans.
enum IndexRadixSort {
    static func sort(_ values: inout [UInt64], bits: Range<UInt64>) {
        let n = values.count
        guard n > 32 else {
            values.sort()
            return
        }
        // the bits of the range that differ between the values
        let rangeMask: UInt64 = (bits.upperBound >= 64 ? ~0 : (1 << bits.upperBound) - 1) & ~((1 << bits.lowerBound) - 1)
        let varying = values.withUnsafeBufferPointer { src -> UInt64 in
            let first = src[0]
            var or: UInt64 = 0
            for v in src { or |= v ^ first }
            return or & rangeMask
        }
        if varying == 0 { return }
        let low = UInt64(varying.trailingZeroBitCount)
        let width = 64 - UInt64(varying.leadingZeroBitCount) - low
        let maxWidth: UInt64 = n >= 1 << 16 ? 11 : 9
        let passes = Int((width + maxWidth - 1) / maxWidth)
        let w = (width + UInt64(passes) - 1) / UInt64(passes)
        let buckets = 1 << w
        let mask = UInt64(buckets - 1)
        var counts = [Int](repeating: 0, count: passes * buckets)
        var other = [UInt64](repeating: 0, count: n)
        counts.withUnsafeMutableBufferPointer { c in
            values.withUnsafeBufferPointer { src in
                for v in src {
                    var shift = low
                    for p in 0..<passes {
                        c[p &* buckets &+ Int(truncatingIfNeeded: (v >> shift) & mask)] &+= 1
                        shift &+= w
                    }
                }
            }
            var shift = low
            for p in 0..<passes {
                let base = p * buckets
                // exclusive prefix sums: where each bucket starts
                var sum = 0
                var trivial = false
                for b in 0..<buckets {
                    let k = c[base &+ b]
                    if k == n { trivial = true }
                    c[base &+ b] = sum
                    sum &+= k
                }
                if !trivial {
                    values.withUnsafeBufferPointer { src in
                        other.withUnsafeMutableBufferPointer { dst in
                            for v in src {
                                let d = base &+ Int(truncatingIfNeeded: (v >> shift) & mask)
                                dst[c[d]] = v
                                c[d] &+= 1
                            }
                        }
                    }
                    swap(&values, &other)
                }
                shift &+= w
            }
        }
    }
}
