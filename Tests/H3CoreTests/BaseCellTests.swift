import Testing

@testable import H3Core

/// The base-cell facts that are written out as constants beside the generated tables.
@Suite struct BaseCellTests {
    /// ``BaseCells/isPentagon(_:)`` reads a constant mask; the tables generated from H3 say which
    /// base cells are pentagons. Every base cell, and the values past the last one (up to 127,
    /// the invalid marker), must agree.
    @Test func thePentagonMaskIsTheTables() {
        var pentagons: [Int] = []
        for bc in 0..<128 {
            let fromTables = bc < BaseCells.count && BaseCells.data[bc].isPentagon
            #expect(BaseCells.isPentagon(bc) == fromTables, "base cell \(bc)")
            if fromTables { pentagons.append(bc) }
        }
        #expect(pentagons == [4, 14, 24, 38, 49, 58, 63, 72, 83, 97, 107, 117])
    }

    @Test func theClockwiseOffsetFacesAreTheTables() {
        var offsets = 0
        for bc in 0..<BaseCells.count {
            let faces = BaseCells.data[bc].cwOffsetFaces
            for face in 0..<20 {
                #expect(BaseCells.isCwOffset(bc, face: face) == (faces.0 == face || faces.1 == face), "base cell \(bc), face \(face)")
                if BaseCells.isPentagon(bc) && BaseCells.isCwOffset(bc, face: face) { offsets += 1 }
            }
        }
        #expect(offsets == 20, "the ten pentagons that are not polar are offset clockwise on two faces each")
    }
}
