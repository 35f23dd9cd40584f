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
}
