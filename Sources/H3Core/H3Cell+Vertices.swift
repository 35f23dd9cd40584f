/// A cell's corners as vertex indexes (H3's `cellToVertex` and `cellToVertexes`, `vertex.c`).
extension H3Cell {
    /// The vertex index of corner `number` of this cell (H3's `cellToVertex`).
    ///
    /// Corners are numbered counter-clockwise as in ``boundary`` (whose points they are,
    /// leaving out the extra points where an edge crosses an icosahedron edge).
    ///
    /// - Parameter number: 0...5, or 0...4 on a pentagon.
    /// - Returns: the corner's canonical index, exactly H3's: it may name another cell as owner.
    /// - Throws: ``H3Error/vertexNumberDomain`` when `number` is out of range.
    /// - Complexity: O(resolution), up to 2 neighbour steps.
    public func vertex(number: Int) throws(H3Error) -> Vertex {
        guard number >= 0, number < (isPentagon ? 5 : 6) else { throw .vertexNumberDomain }
        return Vertex(unchecked: VertexGeometry.vertex(of: rawValue, number: number))
    }

    /// The vertex indexes of all the cell's corners, 6 for a hexagon and 5 for a pentagon, in
    /// H3's order (counter-clockwise from corner 0) (H3's `cellToVertexes`, with a pentagon's
    /// missing sixth left out as h3-py does). Exactness: H3's indexes, in H3's order.
    ///
    /// - Complexity: O(resolution).
    public var vertices: [Vertex] {
        // one memo for the cell's corners: each asks for the frame rotations of the cell and of
        // two neighbours, and each neighbour serves two corners
        var memo = VertexGeometry.RotationMemo()
        return (0..<(isPentagon ? 5 : 6)).map { Vertex(unchecked: VertexGeometry.vertex(of: rawValue, number: $0, memo: &memo)) }
    }
}

/// How H3 numbers a cell's corners against the directions of its neighbours (`vertex.c`).
enum VertexGeometry {
    /// For each pentagon base cell, the faces its neighbours lie on by direction, from j (2) to
    /// ij (6); from H3's `pentagonDirectionFaces`.
    private static let pentagonDirectionFaces: [Int: [Int]] = [
        4: [4, 0, 2, 1, 3], 14: [6, 11, 2, 7, 1], 24: [5, 10, 1, 6, 0], 38: [7, 12, 3, 8, 2],
        49: [9, 14, 0, 5, 4], 58: [8, 13, 4, 9, 3], 63: [11, 6, 15, 10, 16], 72: [12, 7, 16, 11, 17],
        83: [10, 5, 19, 14, 15], 97: [13, 8, 17, 12, 18], 107: [14, 9, 18, 13, 19], 117: [15, 19, 17, 18, 16],
    ]

    /// The face a pentagon's neighbour in direction `d` lies on.
    private static func face(ofPentagon bc: Int, _ d: Direction) -> Int {
        pentagonDirectionFaces[bc]![Int(d.rawValue) - 2]
    }

    /// Hexagon: the first corner of the edge towards each direction (0 and 7 unused).
    private static let hexagonVertexForDirection = [-1, 3, 1, 2, 5, 4, 0]
    /// Pentagon: the same (0, 1 and 7 unused).
    private static let pentagonVertexForDirection = [-1, -1, 1, 2, 4, 3, 0]
    /// Hexagon: the direction of the edge that starts at each corner.
    private static let hexagonDirectionForVertex: [Direction] = [.ijAxes, .jAxes, .jkAxes, .kAxes, .ikAxes, .iAxes]
    /// Pentagon: the same.
    private static let pentagonDirectionForVertex: [Direction] = [.ijAxes, .jAxes, .jkAxes, .ikAxes, .iAxes]
    /// Directions in counter-clockwise order.
    private static let counterClockwise: [Direction] = [.jAxes, .jkAxes, .kAxes, .ikAxes, .iAxes, .ijAxes]
    /// For each direction, the position in `counterClockwise` of the direction back from the
    /// neighbour there (before the neighbour's rotations).
    private static let reverseDirectionPosition = [-1, 5, 3, 4, 1, 0, 2]

    /// The ccw 60° rotations of a base cell's frame on `face`: the first slot of the face's
    /// 3×3×3 table that holds it (H3's `_baseCellToCCWrot60`), or nil. Read from a table made
    /// once by that search (H3 searches the 27 slots on every call; cellToVertexes made 18 such
    /// searches a cell).
    private static func baseCellRotations(_ bc: Int, face: Int) -> Int? {
        let r = rotationTable[face * BaseCells.count + bc]
        return r < 0 ? nil : Int(r)
    }

    private static let rotationTable: [Int8] = {
        var table = [Int8](repeating: -1, count: 20 * BaseCells.count)
        for face in 0..<20 {
            for i in 0..<3 { for j in 0..<3 { for k in 0..<3 {
                let slot = BaseCells.lookup(face: face, CoordIJK(i, j, k))
                let at = face * BaseCells.count + slot.baseCell
                if table[at] < 0 { table[at] = Int8(slot.ccwRot60) }
            } } }
        }
        return table
    }()

    /// How far the cell's corner numbering is turned ccw from the directions of its neighbours
    /// (H3's `vertexRotations`).
    private static func rotations(_ cell: UInt64) -> Int {
        var memo = RotationMemo()
        return rotations(cell, memo: &memo)
    }

    /// ``rotations(_:)`` remembered for the last few cells asked (the cell's face is a walk
    /// down its digits: the cost of a corner).
    struct RotationMemo {
        private var cells: (UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0, 0, 0, 0, 0)
        private var values: (Int8, Int8, Int8, Int8, Int8, Int8, Int8, Int8) = (0, 0, 0, 0, 0, 0, 0, 0)
        private var next = 0

        mutating func value(_ cell: UInt64, _ compute: (UInt64) -> Int) -> Int {
            let found: Int? = withUnsafeBytes(of: cells) { c in
                let c = c.bindMemory(to: UInt64.self)
                for i in 0..<8 where c[i] == cell { return i }
                return nil
            }
            if let i = found { return Int(withUnsafeBytes(of: values) { $0.bindMemory(to: Int8.self)[i] }) }
            let v = compute(cell)
            let slot = next
            next = (next + 1) & 7
            withUnsafeMutableBytes(of: &cells) { $0.bindMemory(to: UInt64.self)[slot] = cell }
            withUnsafeMutableBytes(of: &values) { $0.bindMemory(to: Int8.self)[slot] = Int8(v) }
            return v
        }
    }

    private static func rotations(_ cell: UInt64, memo: inout RotationMemo) -> Int {
        memo.value(cell, computeRotations)
    }

    private static func computeRotations(_ cell: UInt64) -> Int {
        let fijk = H3Cell(unchecked: cell).faceIJK
        let bc = H3IndexBits.baseCell(cell)
        let leading = H3IndexBits.leadingNonZeroDigit(cell)
        guard var rotations = baseCellRotations(bc, face: fijk.face) else {
            preconditionFailure("base cell \(bc) is not on face \(fijk.face), where its cell \(String(cell, radix: 16)) lies")
        }
        if BaseCells.isPentagon(bc) {
            let ikFace = face(ofPentagon: bc, .ikAxes)
            // one more turn on a polar pentagon's other faces and on the face of its ik neighbour
            if fijk.face != BaseCells.data[bc].homeFace && (BaseCells.isPolarPentagon(bc) || fijk.face == ikFace) {
                rotations = (rotations + 1) % 6
            }
            // crossing the deleted k sub-sequence, from jk to ik or back
            if leading == .jkAxes && fijk.face == ikFace {
                rotations = (rotations + 5) % 6
            } else if leading == .ikAxes && fijk.face == face(ofPentagon: bc, .jkAxes) {
                rotations = (rotations + 1) % 6
            }
        }
        return rotations
    }

    /// The first corner of the edge towards `direction`, or -1 for no such edge (H3's
    /// `vertexNumForDirection`).
    static func vertexNumber(_ cell: UInt64, direction: Direction) -> Int {
        var memo = RotationMemo()
        return vertexNumber(cell, direction: direction, memo: &memo)
    }

    static func vertexNumber(_ cell: UInt64, direction: Direction, memo: inout RotationMemo) -> Int {
        let pentagon = GridTraversal.isPentagon(cell)
        if direction == .center || direction.rawValue >= Direction.invalid.rawValue || (pentagon && direction == .kAxes) {
            return -1
        }
        let r = rotations(cell, memo: &memo)
        return pentagon
            ? (pentagonVertexForDirection[Int(direction.rawValue)] + 5 - r) % 5
            : (hexagonVertexForDirection[Int(direction.rawValue)] + 6 - r) % 6
    }

    /// The direction of the edge that starts at corner `number` (H3's `directionForVertexNum`,
    /// for a number known to be in range).
    private static func direction(_ cell: UInt64, vertexNumber number: Int, memo: inout RotationMemo) -> Direction {
        let r = rotations(cell, memo: &memo)
        return GridTraversal.isPentagon(cell)
            ? pentagonDirectionForVertex[(number + r) % 5]
            : hexagonDirectionForVertex[(number + r) % 6]
    }

    /// The neighbour of `cell` in `direction` and the rotations of its frame; valid cells always have one.
    private static func neighbor(_ cell: UInt64, _ direction: Direction) -> (cell: UInt64, rotations: Int) {
        var rotations = 0
        guard case .success(let h) = GridTraversal.neighbor(cell, direction, rotations: &rotations) else {
            preconditionFailure("cell \(String(cell, radix: 16)) has no neighbour in direction \(direction.rawValue)")
        }
        return (h, rotations)
    }

    /// The canonical vertex index of corner `number` (in range) of the valid cell `cell`
    /// (H3's `cellToVertex`): of the (up to) three cells at the corner, the lowest index owns it.
    static func vertex(of cell: UInt64, number: Int) -> UInt64 {
        var memo = RotationMemo()
        return vertex(of: cell, number: number, memo: &memo)
    }

    static func vertex(of cell: UInt64, number: Int, memo: inout RotationMemo) -> UInt64 {
        let cellPentagon = GridTraversal.isPentagon(cell)
        let cellVertexCount = cellPentagon ? 5 : 6
        let res = H3IndexBits.resolution(cell)
        var owner = cell
        var ownerNumber = number

        // a centre child has the lowest index of its neighbours, so it owns all its corners
        if res == 0 || H3IndexBits.digit(cell, res) != .center {
            // the neighbour across the edge that starts at this corner ("left")
            let left = direction(cell, vertexNumber: number, memo: &memo)
            let (leftNeighbor, leftRotations) = neighbor(cell, left)
            if leftNeighbor < owner { owner = leftNeighbor }

            // the neighbour across the edge that ends here ("right"), unless the left one is a
            // centre child and so the lowest
            if res == 0 || H3IndexBits.digit(leftNeighbor, res) != .center {
                let right = direction(cell, vertexNumber: (number - 1 + cellVertexCount) % cellVertexCount, memo: &memo)
                let (rightNeighbor, rightRotations) = neighbor(cell, right)
                if rightNeighbor < owner {
                    owner = rightNeighbor
                    let back = GridTraversal.isPentagon(owner)
                        ? GridTraversal.direction(from: owner, to: cell) ?? .invalid
                        : counterClockwise[(reverseDirectionPosition[Int(right.rawValue)] + rightRotations) % 6]
                    ownerNumber = vertexNumber(owner, direction: back, memo: &memo)
                    precondition(ownerNumber >= 0, "no corner on \(String(owner, radix: 16)) towards \(String(cell, radix: 16))")
                }
            }

            // on the left neighbour, the corner ends the edge back to this cell
            if owner == leftNeighbor {
                let ownerPentagon = GridTraversal.isPentagon(owner)
                let back = ownerPentagon
                    ? GridTraversal.direction(from: owner, to: cell) ?? .invalid
                    : counterClockwise[(reverseDirectionPosition[Int(left.rawValue)] + leftRotations) % 6]
                ownerNumber = vertexNumber(owner, direction: back, memo: &memo) + 1
                if ownerNumber == 6 || (ownerPentagon && ownerNumber == 5) { ownerNumber = 0 }
            }
        }
        return H3IndexBits.setReservedBits(H3IndexBits.setMode(owner, H3IndexBits.vertexMode), ownerNumber)
    }
}
