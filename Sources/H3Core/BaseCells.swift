/// The 122 resolution-0 cells, read from the generated tables in `H3Tables.swift`.
enum BaseCells {
    static let count = 122
    /// The value of `neighbors` where a pentagon has no neighbour (its deleted k direction).
    static let invalid = 127

    struct Data {
        /// Home face and coordinates of the base cell on it.
        let homeFace: Int
        let homeIJK: CoordIJK
        let isPentagon: Bool
        /// For pentagons, the two faces on which the cell is offset clockwise (-1: none).
        let cwOffsetFaces: (Int, Int)
    }

    static let data: [Data] = (0..<count).map { bc in
        let t = baseCellDataTable
        let b = bc * 7
        return Data(homeFace: Int(t[b]), homeIJK: CoordIJK(Int(t[b + 1]), Int(t[b + 2]), Int(t[b + 3])),
                    isPentagon: t[b + 4] != 0, cwOffsetFaces: (Int(t[b + 5]), Int(t[b + 6])))
    }

    /// Whether each of the 128 encodable base-cell numbers is a pentagon (false past 121).
    /// The 12 pentagon base cells (4, 14, 24, 38, 49, 58, 63; 72, 83, 97, 107, 117) as a
    /// 128-bit mask in two words, which ``isPentagon(_:)`` tests: constants, where a `[Bool]`
    /// table made from ``data`` was a lazily initialised global whose every read went through
    /// `swift_once` (6 % of cellToVertexes' time, perf). A test checks the mask against ``data``.
    static let pentagonMask: (low: UInt64, high: UInt64) = (0x8402_0040_0100_4010, 0x0020_0802_0008_0100)

    /// Whether base cell `bc` (0...127) is a pentagon.
    @inline(__always) static func isPentagon(_ bc: Int) -> Bool {
        let word = bc < 64 ? pentagonMask.low : pentagonMask.high
        return word >> UInt64(bc & 63) & 1 != 0
    }

    /// The two polar pentagons (base cells 4 and 117), whose neighbours all lie in the i direction.
    @inline(__always) static func isPolarPentagon(_ bc: Int) -> Bool { bc == 4 || bc == 117 }

    @inline(__always) static func isCwOffset(_ bc: Int, face: Int) -> Bool {
        // from the generated table (a constant), not ``data``: latLngToCell asks only for a rare
        // pentagon digit, and that was its first read of the lazily built ``data``, whose two
        // allocations then fell in a measured iteration (`make bench`'s allocation check)
        let t = baseCellDataTable, b = bc * 7
        return Int(t[b + 5]) == face || Int(t[b + 6]) == face
    }

    /// Base cell and ccw 60° rotations for coordinates in 0...2 on a face.
    @inline(__always) static func lookup(face: Int, _ c: CoordIJK) -> (baseCell: Int, ccwRot60: Int) {
        let idx = (((face * 3 + c.i) * 3 + c.j) * 3 + c.k) * 2
        return (Int(faceIjkBaseCellsTable[idx]), Int(faceIjkBaseCellsTable[idx + 1]))
    }

    /// The neighbouring base cell in direction `dir` (`invalid` for a pentagon's k direction).
    @inline(__always) static func neighbor(_ bc: Int, _ dir: Direction) -> Int {
        Int(baseCellNeighborsTable[bc * 7 + Int(dir.rawValue)])
    }

    /// Ccw 60° rotations into the frame of the neighbour in direction `dir`.
    @inline(__always) static func neighborRotations(_ bc: Int, _ dir: Direction) -> Int {
        Int(baseCellNeighbor60CCWRotsTable[bc * 7 + Int(dir.rawValue)])
    }
}
