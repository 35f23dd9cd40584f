/// The mapped sections of a postal data file (layout in `scripts/build_postal_data.py`), as a
/// trivial value: the search copies it freely without reference counting.
///
/// Cells are grouped in square blocks (64 × 64 cells by default). A lookup reads the block
/// directory (small, so mostly cached), the block's row table (neighbouring rows share its
/// cache line), the few sorted keys of the row, and the points of the cells it needs, which lie
/// together in memory.
struct PostalGrid {
    let blockStart: UnsafeBufferPointer<UInt32>
    /// Per block, where its row starts lie in `rowPool` (`UInt32.max` for an empty block).
    let rowTable: UnsafeBufferPointer<UInt32>
    /// Per non-empty block, side + 1 cell offsets (relative to the block's first cell) at which
    /// its local rows start.
    let rowPool: UnsafeBufferPointer<UInt16>
    let cellKey: UnsafeBufferPointer<UInt16>
    let cellStart: UnsafeBufferPointer<UInt32>
    let points: UnsafeBufferPointer<UInt64>
    /// Grid cells per degree.
    let cellsPerDegree: Double
    /// Coordinate units per degree and per cell side.
    let unitsPerDegree: Int, unitsPerCell: Int
    /// The data's first grid row and column (multiples of the block size).
    let baseRow: Int, baseCol: Int
    /// The block directory's extent.
    let blockRows: Int, blockCols: Int
    /// log2 of the block side in cells: a constant of the format (a file with other blocks is
    /// refused at open), so that the search's shifts and masks are immediates, not loads
    /// (14 % of a search's instructions when it was read from the file).
    static let blockBits = 6

    /// An upper bound of a cell's diagonal in metres (a degree is at most 111.7 km either way).
    var cellDiagonal: Double { Double(unitsPerCell) / Double(unitsPerDegree) * 111_700 * 2.0.squareRoot() }

    /// The points of one cell, `points[start ..< end]`, and where its coordinates start.
    struct Cell {
        let start: Int, end: Int
        /// The cell's south-west corner in units, less one (the stored offsets start at 1).
        let latOrigin: Int, lngOrigin: Int
    }

    @inline(__always) func latitudeUnits(_ cell: Cell, _ p: Int) -> Int { cell.latOrigin + Int((points[p] >> 32) & 0xFF) }
    @inline(__always) func longitudeUnits(_ cell: Cell, _ p: Int) -> Int { cell.lngOrigin + Int((points[p] >> 40) & 0xFF) }
    @inline(__always) func code(_ p: Int) -> PostalCode { PostalCode(packed: UInt32(truncatingIfNeeded: points[p] & 0x1FF_FFFF)) }

    @inline(__always) private func cell(_ c: Int, row: Int, col: Int) -> Cell {
        Cell(start: Int(cellStart[c]), end: Int(cellStart[c + 1]),
             latOrigin: row * unitsPerCell - 90 * unitsPerDegree - 1,
             lngOrigin: col * unitsPerCell - 180 * unitsPerDegree - 1)
    }

    /// Calls `body` for each non-empty cell of grid row `row` with columns col0...col1.
    ///
    /// - Complexity: O(1) per block crossed plus the row's cells before the range (a row holds at
    ///   most 64), plus the cells found.
    @inline(__always) func forEachCell(row: Int, col0: Int, col1: Int, _ body: (Cell) -> Void) {
        let r = row - baseRow
        guard r >= 0, r >> Self.blockBits < blockRows else { return }
        let side = 1 << Self.blockBits
        let mask = side - 1
        let first = Swift.max(col0 - baseCol, 0)
        let last = Swift.min(col1 - baseCol, blockCols * side - 1)
        guard first <= last else { return }
        let localRow = (r & mask) << Self.blockBits
        var blockCol = first >> Self.blockBits
        while blockCol <= last >> Self.blockBits {
            let b = (r >> Self.blockBits) * blockCols + blockCol
            let table = rowTable[b]
            if table != UInt32.max {
                let blockFirst = Int(blockStart[b])
                let rowIndex = Int(table) + (r & mask)
                var lo = blockFirst + Int(rowPool[rowIndex])
                let end = blockFirst + Int(rowPool[rowIndex + 1])
                let from = UInt16(localRow | (Swift.max(first, blockCol << Self.blockBits) & mask))
                let to = UInt16(localRow | (Swift.min(last, (blockCol << Self.blockBits) + mask) & mask))
                // binary search for the first cell at or after the range's first column (a row
                // of a dense block holds up to 64 cells; the walk to it was 6 % of a lookup)
                var hi = end
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if cellKey[mid] < from { lo = mid + 1 } else { hi = mid }
                }
                while lo < end && cellKey[lo] <= to {
                    let col = baseCol + (blockCol << Self.blockBits) + Int(cellKey[lo]) & mask
                    body(cell(lo, row: row, col: col))
                    lo += 1
                }
            }
            blockCol += 1
        }
    }

    /// Every cell, block by block.
    func forEachCell(_ body: (Cell) -> Void) {
        let blockBits = Self.blockBits
        let mask = (1 << blockBits) - 1
        for b in 0..<(blockRows * blockCols) {
            for c in Int(blockStart[b])..<Int(blockStart[b + 1]) {
                let key = Int(cellKey[c])
                let row = baseRow + ((b / blockCols) << blockBits) + (key >> blockBits)
                let col = baseCol + ((b % blockCols) << blockBits) + (key & mask)
                body(cell(c, row: row, col: col))
            }
        }
    }
}
