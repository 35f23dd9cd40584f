/// Neighbours and the directed edges between them (H3's `directedEdge.c` and
/// `directionForNeighbor` in `algos.c`).
extension H3Cell {
    /// Whether `other` shares an edge with this cell (H3's `areNeighborCells`). A cell is not
    /// its own neighbour. Exactness: H3's answer, and H3's error where H3 gives one.
    ///
    /// - Parameter other: a cell of the same resolution.
    /// - Returns: `true` when the two cells share an edge.
    /// - Throws: ``H3Error/resolutionMismatch`` when the resolutions differ (and the cells are
    ///   not the same). (h3-py returns `False` there instead.)
    /// - Complexity: O(resolution); a gridDisk of radius 1 unless the cells share a parent.
    public func isNeighbor(of other: H3Cell) throws(H3Error) -> Bool {
        if self == other { return false }
        let res = resolution.rawValue
        guard res == other.resolution.rawValue else { throw .resolutionMismatch }
        // siblings: the centre child neighbours all the others, and every other child two of them
        let parentRes = res - 1
        if parentRes > 0 {
            let parentResolution = H3Resolution(unchecked: parentRes)
            if try parent(at: parentResolution) == other.parent(at: parentResolution) {
                let a = H3IndexBits.digit(rawValue, res)
                let b = H3IndexBits.digit(other.rawValue, res)
                if a == .center || b == .center { return true }
                // (H3 rejects a k digit under a pentagon parent here; valid cells have none)
                if H3Cell.clockwiseSibling[Int(a.rawValue)] == b || H3Cell.counterClockwiseSibling[Int(a.rawValue)] == b {
                    return true
                }
            }
        }
        return try gridDisk(k: 1).contains(other)
    }

    /// For each non-centre child digit, the sibling next to it clockwise and counter-clockwise.
    private static let clockwiseSibling: [Direction] = [.center, .jkAxes, .ijAxes, .jAxes, .ikAxes, .kAxes, .iAxes]
    private static let counterClockwiseSibling: [Direction] = [.center, .ikAxes, .jkAxes, .kAxes, .ijAxes, .iAxes, .jAxes]

    /// The directed edge from this cell to `destination` (H3's `cellsToDirectedEdge`).
    ///
    /// - Parameter destination: a neighbour of this cell.
    /// - Returns: the edge, exactly H3's index.
    /// - Throws: ``H3Error/notNeighbors`` when `destination` is not a neighbour (another
    ///   resolution, this cell itself, or too far).
    /// - Complexity: O(resolution), up to 6 neighbour steps.
    public func directedEdge(to destination: H3Cell) throws(H3Error) -> DirectedEdge {
        guard let direction = GridTraversal.direction(from: rawValue, to: destination.rawValue) else {
            throw .notNeighbors
        }
        return DirectedEdge(origin: self, direction: direction)
    }

    /// The directed edges from this cell, 6 for a hexagon and 5 for a pentagon (H3's
    /// `originToDirectedEdges`, with a pentagon's missing edge left out as h3-py does).
    ///
    /// In H3's order, by direction 1...6, which is also ascending order of the indexes.
    /// Exactness: H3's indexes.
    public var directedEdges: [DirectedEdge] {
        let first: UInt8 = isPentagon ? Direction.jAxes.rawValue : Direction.kAxes.rawValue
        return (first...Direction.ijAxes.rawValue).map { DirectedEdge(origin: self, direction: Direction(unchecked: $0)) }
    }
}

extension GridTraversal {
    /// The direction from `origin` to its neighbour `destination`, or `nil` when they are not
    /// neighbours (H3's `directionForNeighbor`).
    static func direction(from origin: UInt64, to destination: UInt64) -> Direction? {
        let first: UInt8 = isPentagon(origin) ? Direction.jAxes.rawValue : Direction.kAxes.rawValue
        for raw in first...Direction.ijAxes.rawValue {
            let d = Direction(unchecked: raw)
            var rotations = 0
            if case .success(let h) = neighbor(origin, d, rotations: &rotations), h == destination { return d }
        }
        return nil
    }
}
