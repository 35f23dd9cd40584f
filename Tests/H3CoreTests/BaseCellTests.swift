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
}
