#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Canadian postal-code centroids of `data/postal_ca.bin`, memory-mapped, with a
/// nearest-centroid search by WGS84 geodesic distance.
///
/// The file (built by `scripts/build_postal_data.py`, layout in its docstring) sorts the
/// centroids into a grid of cells (1/200° by default) grouped in blocks (see ``PostalGrid``). A search scans the cells that surely
/// hold every centroid within a radius, ranks them by a cheap local-plane distance, confirms
/// the few near the best with ``LocalDistance`` and its error bound, and asks PROJ only when
/// the bound leaves a tie, the 0.1 m rounding or the maximum distance undecided.
///
/// Thread safety: the mapping is read-only and the index holds no mutable state, so one
/// instance serves any number of threads.
public final class PostalIndex: @unchecked Sendable {
    /// The file the index reads.
    public let file: DataFile
    /// Number of distinct centroids (codes sharing one centroid count once).
    public var count: Int { grid.points.count }

    /// The mapped sections, as a trivial value the search copies freely (no reference counting).
    fileprivate let grid: PostalGrid

    public static let magic = "GEPOSTL5"
    public static let formatVersion: UInt32 = 5

    /// Opens and validates a postal data file.
    ///
    /// - Throws: ``DataFileError`` naming the file and what is wrong with it.
    /// - Complexity: O(n): the checksum and one pass over the index structure.
    public init(path: String) throws(DataFileError) {
        let file = try DataFile(path: path, magic: PostalIndex.magic, version: PostalIndex.formatVersion)
        self.file = file
        let n = Int(clamping: file.counts[0])
        let c = Int(clamping: file.counts[1])
        let g = Int(clamping: file.counts[2])
        let s = Int(clamping: file.counts[3])
        func corrupt(_ m: String) -> DataFileError { DataFileError(path: path, .corrupt(m)) }
        guard n > 0, c > 0, c <= n, n < Int(Int32.max), (1...3600).contains(g), (1...10_000_000).contains(s), s % g == 0
        else { throw corrupt("implausible counts \(file.counts)") }
        var offset = 0
        func section<T>(_ t: T.Type, _ count: Int) throws(DataFileError) -> UnsafeBufferPointer<T> {
            let b = try file.array(of: t, at: offset, count: count)
            offset += (MemoryLayout<T>.stride * count + 7) & ~7
            return b
        }
        let params = try section(UInt32.self, 8)
        let baseRow = Int(params[0]), baseCol = Int(params[1])
        let blockRows = Int(params[2]), blockCols = Int(params[3]), bits = Int(params[4]), poolCount = Int(params[5])
        guard bits == PostalGrid.blockBits, blockRows > 0, blockCols > 0, baseRow + (blockRows << bits) <= 180 * g + (1 << bits),
              baseCol + (blockCols << bits) <= 360 * g + (1 << bits), blockRows * blockCols < (1 << 26)
        else { throw corrupt("implausible grid parameters \(Array(params))") }
        let blocks = blockRows * blockCols
        let blockStart = try section(UInt32.self, blocks + 1)
        let rowTable = try section(UInt32.self, blocks)
        let rowPool = try section(UInt16.self, poolCount)
        let cellKey = try section(UInt16.self, c)
        let cellStart = try section(UInt32.self, c + 1)
        let points = try section(UInt64.self, n)
        guard offset == file.payload.count else { throw corrupt("payload of \(file.payload.count) bytes, sections need \(offset)") }

        // structure: monotone offsets ending where they must, keys ascending inside each block
        guard blockStart[0] == 0, Int(blockStart[blocks]) == c, cellStart[0] == 0, Int(cellStart[c]) == n else {
            throw corrupt("index offsets do not span the cells and points")
        }
        let keyLimit = 1 << (2 * bits)
        for b in 0..<blocks {
            guard blockStart[b] <= blockStart[b + 1] else { throw corrupt("block offsets decrease at block \(b)") }
            var previous = -1
            for k in Int(blockStart[b])..<Int(blockStart[b + 1]) {
                guard Int(cellKey[k]) > previous, Int(cellKey[k]) < keyLimit else { throw corrupt("cell keys out of order in block \(b)") }
                previous = Int(cellKey[k])
            }
        }
        for i in 0..<c where cellStart[i] >= cellStart[i + 1] { throw corrupt("empty or reversed cell \(i)") }
        // row tables: one per non-empty block, monotone, ending at the block's cell count, and
        // each row's keys on that row
        let side = 1 << bits
        for b in 0..<blocks {
            let count = Int(blockStart[b + 1]) - Int(blockStart[b])
            if rowTable[b] == UInt32.max {
                guard count == 0 else { throw corrupt("block \(b) has cells but no row table") }
                continue
            }
            let t = Int(rowTable[b])
            guard t + side < poolCount + 1, rowPool[t] == 0, Int(rowPool[t + side]) == count else {
                throw corrupt("row table of block \(b) out of range")
            }
            for r in 0..<side {
                guard rowPool[t + r] <= rowPool[t + r + 1] else { throw corrupt("row table of block \(b) decreases") }
                for k in Int(rowPool[t + r])..<Int(rowPool[t + r + 1])
                where Int(cellKey[Int(blockStart[b]) + k]) >> bits != r {
                    throw corrupt("cell \(Int(blockStart[b]) + k) is not on row \(r) of block \(b)")
                }
            }
        }
        let unitsPerCell = s / g
        for i in 0..<n {
            let p = points[i]
            guard UInt32(p & 0x1FF_FFFF) <= PostalCode.maxPacked, (p >> 32) & 0xFF <= UInt64(unitsPerCell + 1),
                  (p >> 40) & 0xFF <= UInt64(unitsPerCell + 1), p >> 48 == 0
            else { throw corrupt("point \(i) out of range") }
        }
        // the checks read every page once; lookups keep resident only what they touch
        file.releaseAllPages()
        grid = PostalGrid(blockStart: blockStart, rowTable: rowTable, rowPool: rowPool, cellKey: cellKey, cellStart: cellStart, points: points,
                          cellsPerDegree: Double(g), unitsPerDegree: s, unitsPerCell: unitsPerCell,
                          baseRow: baseRow, baseCol: baseCol, blockRows: blockRows, blockCols: blockCols)
    }

    /// The postal code whose centroid is nearest a point, if one lies within `maxDistance`.
    ///
    /// Nearest by WGS84 geodesic distance; codes at the same distance (to 1e-6 m) tie and the
    /// smallest wins. The grid does not wrap at the antimeridian (the data is Canadian).
    ///
    /// - Parameters:
    ///   - latitude: degrees, −90…90.
    ///   - longitude: degrees, −180…180.
    ///   - maxDistance: metres; centroids farther away are not answers.
    /// - Returns: the code and its distance rounded to 0.1 m, or `nil`.
    /// - Complexity: proportional to the cells within about twice the distance of the nearest
    ///   centroid: a handful in a city; where there is none, the cells of the whole
    ///   `maxDistance` circle.
    public func nearest(latitude: Double, longitude: Double, maxDistance: Double) -> PostalMatch? {
        search(latitude: latitude, longitude: longitude, maxDistance: maxDistance, hints: nil)
    }

    /// ``nearest(latitude:longitude:maxDistance:)`` that starts from the radius `hints` remember
    /// for the point's cell when the cell holds no centroid, and remembers it for the next search
    /// (the answer is the same; see ``PostalSearchHints``).
    public func nearest(latitude: Double, longitude: Double, maxDistance: Double, hints: PostalSearchHints) -> PostalMatch? {
        search(latitude: latitude, longitude: longitude, maxDistance: maxDistance, hints: hints)
    }

    @inline(__always)
    private func search(latitude: Double, longitude: Double, maxDistance: Double, hints: PostalSearchHints?) -> PostalMatch? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              maxDistance >= 0 else { return nil }
        let q = PostalQuery(grid: grid, latitude: latitude, longitude: longitude)
        return withUnsafeTemporaryAllocation(of: PostalQuery.Candidate.self, capacity: PostalQuery.bufferCapacity) { buffer in
            // grow the searched radius until it surely holds the nearest centroid
            // the first radius follows the density of the query's own cell: a crowded cell
            // (≥ 8 centroids) usually holds the answer within 100 m, an empty one rarely within
            // 800 m (measured on city points: 5–10 % fewer rows and scans than a fixed 150 m),
            // unless a search from the same empty cell has told how far it had to go
            var homeCount = 0
            let g = grid.cellsPerDegree
            let row = q.gridIndex((latitude + 90) * g), column = q.gridIndex((longitude + 180) * g)
            grid.forEachCell(row: row, col0: column, col1: column) { homeCount = $0.end - $0.start }
            var hintKey: UInt64 = 0
            var radius = homeCount >= 8 ? 100.0 : (homeCount > 0 ? 200.0 : 800.0)
            if homeCount == 0, let hints {
                hintKey = PostalSearchHints.key(row: row, column: column)
                if let remembered = hints.radius(for: hintKey) { radius = remembered }
            }
            radius = Swift.min(radius, maxDistance)
            while true {
                let scan = q.scan(radius: radius, into: buffer)
                let bestCheap = scan.bestSquared.squareRoot()
                let found = scan.bestSquared.isFinite && bestCheap * (1 + scan.eps) <= radius
                if found || radius >= maxDistance {
                    if hintKey != 0 {
                        // every point of the cell has a centroid within this one's distance plus
                        // the cell's diagonal; none within maxDistance: one scan of all of it
                        hints!.remember(scan.bestSquared.isFinite ? bestCheap * (1 + scan.eps) * 1.01 + grid.cellDiagonal : maxDistance,
                                        for: hintKey)
                    }
                    if found { return q.decide(scan, buffer, radius: radius, maxDistance: maxDistance) }
                    // everything within maxDistance was scanned
                    guard scan.bestSquared.isFinite, bestCheap * (1 - scan.eps) <= maxDistance else { return nil }
                    return q.decide(scan, buffer, radius: radius, maxDistance: maxDistance)
                }
                let next = scan.bestSquared.isFinite ? bestCheap * (1 + scan.eps) * 1.01 : radius * 4
                radius = Swift.min(Swift.max(next, radius * 1.5), maxDistance)
            }
        }
    }
}

extension PostalIndex {
    /// One centroid: its smallest code and coordinates in degrees.
    ///
    /// - Complexity: O(n) (a scan for the point's cell); for tests and tools.
    public func centroid(_ i: Int) -> (code: PostalCode, latitude: Double, longitude: Double) {
        var found: (PostalCode, Double, Double)? = nil
        let s = Double(grid.unitsPerDegree)
        grid.forEachCell { cell in
            if found == nil, (cell.start..<cell.end).contains(i) {
                found = (grid.code(i), Double(grid.latitudeUnits(cell, i)) / s, Double(grid.longitudeUnits(cell, i)) / s)
            }
        }
        return found!
    }

    /// Calls `body(index, latitude, longitude, code)` for every centroid, cell by cell.
    ///
    /// - Complexity: O(n).
    public func forEachCentroid(_ body: (Int, Double, Double, PostalCode) -> Void) {
        let s = Double(grid.unitsPerDegree)
        grid.forEachCell { cell in
            for p in cell.start..<cell.end {
                body(p, Double(grid.latitudeUnits(cell, p)) / s, Double(grid.longitudeUnits(cell, p)) / s, grid.code(p))
            }
        }
    }
}
