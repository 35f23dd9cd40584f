/// Building cells from their parts, the fixed sets (base cells, pentagons), and the faces a cell
/// touches (`constructCell`, `getRes0Cells`, `getPentagons`, `isResClassIII`, `maxFaceCount`,
/// `getIcosahedronFaces`), after H3 4.5.0's `h3Index.c`.
extension H3Cell {
    /// The cell of `resolution` under base cell `baseCell` whose indexing digits (one per
    /// resolution 1...r, each 0...6) are `digits` (H3's `constructCell`).
    ///
    /// - Throws: ``H3Error/baseCellDomain`` for a base cell outside 0...121;
    ///   ``H3Error/digitDomain`` when a digit is outside 0...6 or there are not exactly
    ///   `resolution` digits; ``H3Error/deletedDigit`` when, under a pentagon base cell, the
    ///   first non-zero digit is 1 (the pentagon's deleted k-axes sub-sequence).
    public init(resolution: H3Resolution, baseCell: Int, digits: [Int]) throws(H3Error) {
        guard (0..<BaseCells.count).contains(baseCell) else { throw .baseCellDomain }
        guard digits.count == resolution.rawValue else { throw .digitDomain }
        var h = H3IndexBits.setBaseCell(H3IndexBits.setResolution(H3IndexBits.initial, resolution.rawValue), baseCell)
        var onPentagon = BaseCells.isPentagon(baseCell)
        for (i, d) in digits.enumerated() {
            guard (0...6).contains(d) else { throw .digitDomain }
            if onPentagon && d != 0 {
                guard d != Int(Direction.kAxes.rawValue) else { throw .deletedDigit }
                onPentagon = false
            }
            h = H3IndexBits.setDigit(h, i + 1, Direction(unchecked: UInt8(d)))
        }
        self.init(unchecked: h)
    }

    /// The 122 cells of resolution 0, ascending (H3's `getRes0Cells`; `res0CellCount` is
    /// their count).
    public static let resolution0Cells: [H3Cell] = (0..<BaseCells.count).map {
        H3Cell(unchecked: H3IndexBits.setBaseCell(H3IndexBits.setResolution(H3IndexBits.initial, 0), $0))
    }

    /// The 12 pentagons of a resolution, ascending (H3's `getPentagons`; `pentagonCount` is 12).
    public static func pentagons(at resolution: H3Resolution) -> [H3Cell] {
        (0..<BaseCells.count).filter(BaseCells.isPentagon).map {
            var h = H3IndexBits.setBaseCell(H3IndexBits.setResolution(H3IndexBits.initial, resolution.rawValue), $0)
            for r in stride(from: 1, through: resolution.rawValue, by: 1) { h = H3IndexBits.setDigit(h, r, .center) }
            return H3Cell(unchecked: h)
        }
    }

    /// Whether a 64-bit value is a valid cell, directed edge or vertex index (H3's `isValidIndex`).
    public static func isValidIndex(_ h: UInt64) -> Bool {
        H3Cell.isValid(h) || DirectedEdge.isValid(h) || Vertex.isValid(h)
    }

    /// Whether the cell's resolution is Class III (odd; H3's `isResClassIII`).
    public var isResolutionClassIII: Bool { resolution.isClassIII }

    /// The most icosahedron faces a cell of this shape can touch: 5 for a pentagon, 2 for a
    /// hexagon (H3's `maxFaceCount`).
    public var maxFaceCount: Int { isPentagon ? 5 : 2 }

    /// The icosahedron faces (0...19) the cell's area touches, ascending (H3's
    /// `getIcosahedronFaces`, whose order H3 leaves unspecified): the faces its vertices land
    /// on once carried over face edges. A Class II pentagon answers with its centre child's,
    /// as in H3, since its own vertices lie on face edges.
    public var icosahedronFaces: [Int] {
        let res = resolution.rawValue
        if isPentagon && !FaceIJK.isClassIII(res) {
            return try! centerChild(at: H3Resolution(unchecked: res + 1)).icosahedronFaces
        }
        let (vertices, adjustedResolution) = CellBoundary.vertices(faceIJK, resolution: res, count: isPentagon ? 5 : 6)
        var faces: [Int] = []
        for var vertex in vertices {
            if isPentagon {
                vertex.adjustPentagonVertexOverage(resolution: adjustedResolution)
            } else {
                _ = vertex.adjustOverageClassII(resolution: adjustedResolution, pentLeading4: false, substrate: true)
            }
            if !faces.contains(vertex.face) { faces.append(vertex.face) }
        }
        precondition(faces.count <= maxFaceCount, "a cell touches at most maxFaceCount faces")
        return faces.sorted()
    }
}
