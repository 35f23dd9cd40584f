#if canImport(Glibc)
import GeoModel
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The postal-code centroids of one country, `data/postal_ca.bin` (Canada) or
/// `data/postal_us.bin` (US ZIP codes), memory-mapped, with a nearest-centroid search by WGS84
/// geodesic distance. Both files have one layout and one search; the file says whose codes it holds.
///
/// The file (built by `scripts/data/build_postal_data.py`, layout in its docstring) sorts the
/// centroids into a grid of cells (1/125° by default) stored row run by row run, each cell
/// sorted by latitude (see ``PostalGrid``). A search sweeps its own cell (or the 3 × 3 around
/// it, when empty) for a first best distance, then the neighbours or row runs that surely hold
/// every centroid within it, ranks them by a
/// cheap local-plane distance, confirms
/// the few near the best with GeoMath's `LocalDistance` and its error bound, and asks the exact geodesic only when
/// the bound leaves a tie, the 0.1 m rounding or the maximum distance undecided.
///
/// Thread safety: the mapping is read-only and the index holds no mutable state, so one
/// instance serves any number of threads.
public final class PostalIndex: @unchecked Sendable {
    /// The file the index reads.
    public let file: DataFile
    /// Number of distinct centroids (codes sharing one centroid count once).
    public var count: Int { grid.points.count }

    /// The mapped sections, as a trivial value (no reference counting); a search takes one copy.
    fileprivate let grid: PostalGrid
    /// Grid cells per degree of the file's grid (for tests and tools).
    var gridCellsPerDegree: Double { grid.cellsPerDegree }

    public static let magic = "GEPOSTL7"
    public static let formatVersion: UInt32 = 7

    /// Whose codes the file holds.
    public let system: PostalCode.System
    /// What marks the file's codes as ``system``'s (``PostalCode/packed``).
    private let codeFlag: UInt32

    /// Opens and validates a postal data file.
    ///
    /// - Parameters:
    ///   - path: the file.
    ///   - expected: the postal system the file must hold; `nil` takes either.
    /// - Throws: ``DataFileError`` naming the file and what is wrong with it.
    /// - Complexity: O(n): the checksum and one pass over the index structure.
    public init(path: String, expecting expected: PostalCode.System? = nil) throws(DataFileError) {
        let file = try DataFile(path: path, magic: PostalIndex.magic, version: PostalIndex.formatVersion)
        self.file = file
        let n = Int(clamping: file.counts[0])
        let c = Int(clamping: file.counts[1])
        let g = Int(clamping: file.counts[2])
        let s = Int(clamping: file.counts[3])
        func corrupt(_ m: String) -> DataFileError { DataFileError(path: path, .corrupt(m)) }
        // 8 bits of latitude offset: at most 250 units a cell, 24 of longitude: 64 cells; block
        // keys of 12 + 13 bits
        guard n > 0, c > 0, c <= n, n < Int(Int32.max), (1...2000).contains(g), (1...10_000_000).contains(s), s % g == 0,
              s / g <= 250, 64 * (s / g) < 1 << 23, 360 * g <= 1 << 19
        else { throw corrupt("implausible counts \(file.counts)") }
        var offset = 0
        func section<T>(_ t: T.Type, _ count: Int) throws(DataFileError) -> UnsafeBufferPointer<T> {
            let b = try file.array(of: t, at: offset, count: count)
            offset += (MemoryLayout<T>.stride * count + 7) & ~7
            return b
        }
        let params = try section(UInt32.self, 8)
        let blockCount = Int(params[0]), rowCount = Int(params[1]), hashBits = Int(params[2])
        let system: PostalCode.System
        let largestCode: UInt32
        switch params[3] {
        case 0: (system, largestCode) = (.canada, PostalCode.maxPacked)
        case 1: (system, largestCode) = (.unitedStates, 99_999)
        default: throw corrupt("unknown postal code system \(params[3]) (0: Canadian, 1: US ZIP)")
        }
        if let expected, expected != system {
            throw corrupt("holds \(system == .canada ? "Canadian postal codes" : "US ZIP codes"), not \(expected == .canada ? "Canadian postal codes" : "US ZIP codes")")
        }
        self.system = system
        codeFlag = system == .unitedStates ? PostalCode.zipFlag : 0
        guard blockCount > 0, blockCount <= rowCount, rowCount <= c, (1...28).contains(hashBits), blockCount < 1 << hashBits
        else { throw corrupt("implausible grid parameters \(Array(params))") }
        let hash = try section(UInt64.self, 1 << hashBits)
        let blocks = try section(UInt64.self, 2 * blockCount)
        let blockRows = try section(UInt64.self, 2 * rowCount)
        let cellStart = try section(UInt32.self, c + 1)
        let points = try section(UInt64.self, n)
        guard offset == file.payload.count else { throw corrupt("payload of \(file.payload.count) bytes, sections need \(offset)") }
        let grid = PostalGrid(hash: hash, hashBits: hashBits, blocks: blocks, blockRows: blockRows, cellStart: cellStart,
                              points: points, cellsPerDegree: g, unitsPerDegree: s)

        // the directory: every block found by the hash, row and cell indices that chain up to
        // the counts, and every point inside the cell it is filed in
        var entries = 0
        for e in hash where e != 0 {
            entries += 1
            guard Int(e & 0xFFFF_FFFF) < blockCount else { throw corrupt("hash slot names block \(e & 0xFFFF_FFFF) of \(blockCount)") }
        }
        guard entries == blockCount else { throw corrupt("hash holds \(entries) blocks, the file \(blockCount)") }
        var nextRow = 0
        var previousKey = -1
        for b in 0..<blockCount {
            let key = Int(blocks[2 * b + 1] >> 32)
            let blockRow = key >> 13, chunk = key & 0x1FFF
            guard key > previousKey, (blockRow << PostalGrid.blockBits) < grid.rowCount, (chunk << PostalGrid.blockBits) < grid.columnCount,
                  blocks[2 * b] != 0, Int(blocks[2 * b + 1] & 0xFFFF_FFFF) == nextRow,
                  grid.block(row: blockRow << PostalGrid.blockBits, chunk: chunk) == b
            else { throw corrupt("block \(b) is out of order, empty or not found by its key") }
            previousKey = key
            nextRow += blocks[2 * b].nonzeroBitCount
        }
        guard nextRow == rowCount else { throw corrupt("blocks name \(nextRow) block rows, the file has \(rowCount)") }
        var nextCell = 0
        for r in 0..<rowCount {
            guard blockRows[2 * r] != 0, blockRows[2 * r + 1] == UInt64(nextCell) else { throw corrupt("block row \(r) is empty or out of order") }
            nextCell += blockRows[2 * r].nonzeroBitCount
        }
        guard nextCell == c, cellStart[0] == 0, Int(cellStart[c]) == n else { throw corrupt("index offsets do not span the cells and points") }
        for i in 0..<c where cellStart[i] >= cellStart[i + 1] { throw corrupt("empty or reversed cell \(i)") }
        var misfiled: (Int, Int)? = nil
        var unsorted: Int? = nil
        let scale = Double(s), cellsPerDegree = Double(g)
        let unitsPerCell = grid.unitsPerCell
        grid.forEachCell { row, column, range in
            // the units from the cell's south and west edges where a point in the cell's interior
            // lies, as offsets from where a point's word counts its coordinates
            let south = row &* unitsPerCell &- 90 &* s, west = column &* unitsPerCell &- 180 &* s
            let latitudeFrom = range.latBase &- south &- 1, longitudeFrom = range.lngBase &- west &- 1
            let limit = UInt(unitsPerCell &- 1)
            /// Whether the point with word `w` lies at least one unit inside both edges of the
            /// cell: then in its cell whatever the rounding, since the exact quotient lies at
            /// least 1/unitsPerCell (≥ 1/250) from a cell's edge and the double arithmetic errs
            /// by less than 1e-9 cells.
            @inline(__always) func isInterior(_ w: UInt64) -> Bool {
                UInt(bitPattern: latitudeFrom &+ Int(truncatingIfNeeded: w & 0xFF)) < limit
                    && UInt(bitPattern: longitudeFrom &+ Int(truncatingIfNeeded: (w &>> 8) & 0xFF_FFFF)) < limit
            }
            /// Whether point `p` lies in the cell and its code is in range. The reader's own
            /// arithmetic must put the point where the file does; only a point on an edge (or
            /// outside) needs its division: two of them per point were most of the 67 M
            /// instructions opening the postal file took (callgrind).
            func isFiled(_ p: Int) -> Bool {
                if !isInterior(points[p]) {
                    let lat = Double(grid.latitudeUnits(range, p)) / scale, lng = Double(grid.longitudeUnits(range, p)) / scale
                    if floorToInt((lat + 90) * cellsPerDegree) != row || floorToInt((lng + 180) * cellsPerDegree) != column {
                        return false
                    }
                }
                return PostalGrid.packedCode(points[p]) <= largestCode
            }
            // First the whole cell at once, without a branch a point: every point inside, the
            // largest code, the latitudes in order (a byte of the point's word, in one row).
            // Only a cell with a point that fails (or on an edge) is looked at point by point.
            // (Point by point with its branches, the check was 43 M instructions, callgrind.)
            var onEdge = false, codes: UInt32 = 0, disorder = false
            var previous: UInt64 = 0
            for p in range.start..<range.end {
                let w = points[p]
                let latitude = w & 0xFF
                onEdge = onEdge || !isInterior(w)
                codes = max(codes, PostalGrid.packedCode(w))
                disorder = disorder || latitude < previous
                previous = latitude
            }
            if misfiled == nil, onEdge || codes > largestCode {
                if let p = (range.start..<range.end).first(where: { !isFiled($0) }) { misfiled = (p, row) }
            }
            // the search's sweeps stop early: they need each cell sorted by latitude
            if unsorted == nil, disorder {
                unsorted = (range.start &+ 1..<range.end).first { grid.latitudeUnits(range, $0) < grid.latitudeUnits(range, $0 &- 1) }
            }
        }
        if let (p, row) = misfiled { throw corrupt("point \(p) lies outside its cell in row \(row), or its code is out of range") }
        if let p = unsorted { throw corrupt("point \(p) is south of the point before it in its cell (cells must be sorted by latitude)") }
        // the checks read every page once; lookups keep resident only what they touch
        file.releaseAllPages()
        self.grid = grid
    }

    /// The postal code whose centroid is nearest a point, if one lies within `maxDistance`.
    ///
    /// Nearest by WGS84 geodesic distance; codes at the same distance (to 1e-6 m) tie and the
    /// smallest wins. The grid does not wrap at the antimeridian: no Canadian or US centroid lies
    /// within 100 km of it, farther than the default 20 km maximum.
    ///
    /// - Parameters:
    ///   - latitude: degrees, −90…90.
    ///   - longitude: degrees, −180…180.
    ///   - maxDistance: metres; centroids farther away are not answers.
    /// - Returns: the code and its distance rounded to 0.1 m, or `nil`.
    /// - Complexity: O(1) directory work per grid row within the nearest centroid's distance
    ///   (two or three rows in a city), plus the points of those rows' runs (a few dozen);
    ///   where there is none, every row of the `maxDistance` circle.
    public func nearest(latitude: Double, longitude: Double, maxDistance: Double) -> PostalMatch? {
        search(latitude: latitude, longitude: longitude, maxDistance: maxDistance, hints: nil)
    }

    /// ``nearest(latitude:longitude:maxDistance:)`` that starts from the radius `hints` remember
    /// for the point's cell when the cell holds no centroid, and remembers it for the next search
    /// (the answer is the same; see ``PostalSearchHints``).
    public func nearest(latitude: Double, longitude: Double, maxDistance: Double, hints: PostalSearchHints) -> PostalMatch? {
        search(latitude: latitude, longitude: longitude, maxDistance: maxDistance, hints: hints)
    }

    /// The search, its code marked with the file's ``system``.
    @inline(__always)
    private func search(latitude: Double, longitude: Double, maxDistance: Double, hints: PostalSearchHints?) -> PostalMatch? {
        guard let match = searchFile(latitude: latitude, longitude: longitude, maxDistance: maxDistance, hints: hints)
        else { return nil }
        guard codeFlag != 0 else { return match }
        return PostalMatch(code: PostalCode(packed: match.code.packed | codeFlag), distanceMetres: match.distanceMetres)
    }

    @inline(__always)
    private func searchFile(latitude: Double, longitude: Double, maxDistance: Double, hints: PostalSearchHints?) -> PostalMatch? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              maxDistance >= 0 else { return nil }
        // one copy of the grid for the whole search (read from the property at each step, it was
        // copied before each call)
        let grid = self.grid
        let q = PostalQuery(grid: grid, latitude: latitude, longitude: longitude)
        return withUnsafeTemporaryAllocation(of: PostalQuery.Candidate.self, capacity: PostalQuery.bufferCapacity) { buffer in
            // grow the searched radius until it surely holds the nearest centroid; the query's
            // own cell is read first, whole (or, when it is empty, the 3 × 3 cells
            // around it): a first best distance that clips every row after it; every point of
            // those cells lies within two cell diagonals, so one scan of that radius ends the
            // search unless all nine are empty. Then the radius grows, from where a search from
            // the same empty cell had to go, if the hints remember it.
            let row = q.homeRow, column = q.homeColumn
            var cache = PostalGrid.BlockCache()
            var home: PostalGrid.Range? = nil
            grid.forEachRange(row: row, col0: column, col1: column, cache: &cache) { home = $0 }
            let homeEmpty = home == nil
            var seed = homeEmpty ? PostalQuery.Seed(row0: row - 1, row1: row + 1, column0: column - 1, column1: column + 1)
                : PostalQuery.Seed(row0: row, row1: row, column0: column, column1: column, cell: home)
            let seedSpan = 2.02 * grid.cellDiagonal
            var hintKey: UInt64 = 0
            var radius = seedSpan
            var seedReach = seedSpan
            if homeEmpty, let hints {
                hintKey = PostalSearchHints.key(row: row, column: column)
                if let start = hints.start(for: hintKey) {
                    radius = Swift.max(radius, start.radius)
                    // the last answer's cell, read first, gives a best distance from the start
                    // (its points lie within the remembered radius plus two cell diagonals: the
                    // cheap distance's error is bounded over that span)
                    if let (r, c) = start.answerCell {
                        seed = PostalQuery.Seed(row0: r, row1: r, column0: c, column1: c)
                        seedReach = Swift.min(radius, maxDistance) + 2 * grid.cellDiagonal
                    }
                }
            }
            radius = Swift.min(radius, maxDistance)
            // most points of a city: a near centroid in their own cell settles it within the 3 × 3
            if let home, radius == seedSpan,
               let scan = q.scanNearby(grid, home: home, row: row, column: column, radius: radius, cache: cache, into: buffer) {
                return q.decide(grid, scan, buffer, radius: radius, maxDistance: maxDistance)
            }
            var firstScan = true
            while true {
                let scan = q.scan(grid, radius: radius, span: firstScan ? seedReach : seedSpan, seed: firstScan ? seed : nil,
                                  cache: cache, into: buffer)
                firstScan = false
                let bestCheap = scan.bestSquared.squareRoot()
                let found = scan.bestSquared.isFinite && bestCheap * (1 + scan.eps) <= radius
                if found || radius >= maxDistance {
                    if hintKey != 0 {
                        // every point of the cell has a centroid within this one's distance plus
                        // the cell's diagonal; none within maxDistance: one scan of all of it
                        let answerCell = scan.best(in: buffer).flatMap { grid.cell(latitudeUnits: $0.latUnits, longitudeUnits: $0.lngUnits) }
                        hints!.remember(scan.bestSquared.isFinite ? bestCheap * (1 + scan.eps) * 1.01 + grid.cellDiagonal : maxDistance,
                                        answerCell: answerCell, for: hintKey)
                    }
                    if found { return q.decide(grid, scan, buffer, radius: radius, maxDistance: maxDistance) }
                    // everything within maxDistance was scanned
                    guard scan.bestSquared.isFinite, bestCheap * (1 - scan.eps) <= maxDistance else { return nil }
                    return q.decide(grid, scan, buffer, radius: radius, maxDistance: maxDistance)
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
        grid.forEachCell { _, _, range in
            if found == nil, (range.start..<range.end).contains(i) {
                found = (PostalCode(packed: grid.code(i).packed | codeFlag), Double(grid.latitudeUnits(range, i)) / s, Double(grid.longitudeUnits(range, i)) / s)
            }
        }
        return found!
    }

    /// Calls `body(index, latitude, longitude, code)` for every centroid, cell by cell.
    ///
    /// - Complexity: O(n).
    public func forEachCentroid(_ body: (Int, Double, Double, PostalCode) -> Void) {
        let s = Double(grid.unitsPerDegree)
        grid.forEachCell { _, _, range in
            for p in range.start..<range.end {
                body(p, Double(grid.latitudeUnits(range, p)) / s, Double(grid.longitudeUnits(range, p)) / s,
                     PostalCode(packed: grid.code(p).packed | codeFlag))
            }
        }
    }
}
