/// The row walk of a search: the cells a scan reads first (its seed), the scans of growing
/// radius that visit grid rows outward from the query's, the 3 × 3 shortcut, and the second
/// pass over every point of a rectangle when the candidate buffer overflowed.
extension PostalQuery {
    /// A rectangle of grid cells a scan reads first, whole, before the rows of its radius.
    struct Seed {
        /// Grid rows `row0...row1` (none when `row0 > row1`), columns `column0...column1`.
        var row0: Int, row1: Int, column0: Int, column1: Int
        /// The points of the one cell of the seed, when the caller has found them already.
        var cell: PostalGrid.Range? = nil
    }

    /// A run of point indices `start..<end` a row's scan leaves out (by default none: it starts
    /// and ends past every index).
    struct Skip {
        var start = Int.max, end = Int.max
    }

    /// The seed's runs for its rows (up to three), by row offset; other offsets give none.
    struct SeedRuns {
        var r0 = Skip(), r1 = Skip(), r2 = Skip()

        subscript(offset: Int) -> Skip {
            get {
                switch offset {
                case 0: return r0
                case 1: return r1
                case 2: return r2
                default: return Skip()
                }
            }
            set {
                switch offset {
                case 0: r0 = newValue
                case 1: r1 = newValue
                default: r2 = newValue
                }
            }
        }
    }

    /// Scans the cells that may hold a point within `radius` metres: first the `seed` cells
    /// (the query's own cell, the 3 × 3 around it, or the cell of an answer the hints remember:
    /// a first best distance, cheaply),
    /// then rows outward from the query's, each row clipped to the circle of the radius or, once
    /// a point is found, of the best distance so far, less the seed cells. Lower bounds keep it
    /// exact: a degree of latitude is at least 110,574 m, a degree of longitude at least
    /// ``longitudeMetres(latitudeSpan:)``. Points within the running best's ranking error go to
    /// `buffer`.
    ///
    /// - Parameter span: metres; the cheap distance's error bound is taken over this distance
    ///   from the query (at least the radius, and the seed's farthest corner).
    @inline(__always) func scan(_ grid: PostalGrid, radius: Double, span: Double, seed: Seed?, cache: PostalGrid.BlockCache,
                                into buffer: UnsafeMutableBufferPointer<Candidate>) -> ScanResult {
        var scanner = Scanner(query: self, radius: radius, span: Swift.max(span, radius), buffer: buffer)
        // one remembered block for the rows north of the query (starting from the caller's, the
        // query's own), one for those south of it
        var north = cache, south = cache
        let home = scanner.homeRow, f = scanner.homePlace
        if let seed {
            // the seed's points of each of its rows are one run (two where the seed crosses into
            // another block: the rows then read the first again, a duplicate the ranking
            // settles): rows later skip that run
            scanner.seedRow0 = seed.row0
            scanner.seedRow1 = seed.row1
            scanner.seedColumn0 = seed.column0
            scanner.seedColumn1 = seed.column1
            if let cell = seed.cell {
                scanner.scanRange(cell, side: seed.row0 &- home, grid)
                scanner.seedRuns[0] = scanner.lastRun
            } else {
                for row in seed.row0...seed.row1 {
                    scanner.lastRun = Skip()
                    scanner.scanColumns(grid, row: row, seed.column0, seed.column1, cache: &north)
                    scanner.seedRuns[row - seed.row0] = scanner.lastRun
                }
            }
            scanner.excluded = Skip()
        }
        // rows outward from the query's: home, then home ± 1, home ± 2, … while a row's nearest
        // edge lies within the reach: (k − f) rows north and (k − 1 + f) rows south, f the
        // query's place inside its row (a lower bound, less a millionth of a row for rounding)
        let rowMetres = 110_574.0 / grid.cellsPerDegree
        scanner.visit(grid, home, dy: 0, cache: &north)
        var k = 1
        var goNorth = true, goSouth = true
        while goNorth || goSouth {
            if goNorth {
                let dy = (Double(k) - f - 1e-6) * rowMetres
                goNorth = dy <= scanner.reach
                if goNorth { scanner.visit(grid, home + k, dy: dy, cache: &north) }
            }
            if goSouth {
                let dy = (Double(k - 1) + f - 1e-6) * rowMetres
                goSouth = dy <= scanner.reach && home - k >= 0
                if goSouth { scanner.visit(grid, home - k, dy: dy, cache: &south) }
            }
            k += 1
        }
        return scanner.result
    }

    /// The search when the query's own cell holds centroids and the nearest of them is nearer
    /// than a cell's width and height: then only the 3 × 3 cells around can hold a rival. It
    /// sweeps the query's cell, then exactly the neighbours the rows of ``scan(radius:span:seed:cache:into:)``
    /// would reach (the same lower bounds: a neighbour beside the query's cell by its column
    /// bitmap, a row above or below by a row visit), without that scan's row loop.
    ///
    /// - Parameters:
    ///   - home: the points of the query's cell (`row`, `column`).
    ///   - radius: metres, the first scan's radius (the seed's span).
    /// - Returns: the scan, or `nil` when the nearest point of the cell lies too far for the
    ///   3 × 3 cells to settle it (the caller then runs the whole scan).
    @inline(__always) func scanNearby(_ grid: PostalGrid, home: PostalGrid.Range, row: Int, column: Int, radius: Double,
                                      cache: PostalGrid.BlockCache, into buffer: UnsafeMutableBufferPointer<Candidate>) -> ScanResult? {
        var scanner = Scanner(query: self, radius: radius, span: radius, buffer: buffer)
        let f = scanner.homePlace
        scanner.scanRange(home, side: 0, grid)
        // a chord of the reach spans at most one column either way while reach · columns per
        // metre stays below 1, and rows ± 2 lie beyond it while reach stays below a row
        let rowMetres = 110_574.0 / grid.cellsPerDegree
        guard scanner.reach * scanner.columnsPerMetre < 0.999, scanner.reach < rowMetres * 0.999 else { return nil }
        // the query's row: the neighbours its chord reaches (as ``Scanner/visit(_:_:dy:cache:)`` clips)
        var cache = cache
        for step in stride(from: -1, through: 1, by: 2) {
            let half = scanner.reach * scanner.columnsPerMetre + 1e-6
            let reaches = step < 0 ? PostalQuery.gridIndex(scanner.x - half) < column : PostalQuery.gridIndex(scanner.x + half) > column
            guard reaches else { continue }
            if let cell = grid.neighbour(of: home, column: column, step: step) {
                scanner.scanRange(cell, side: 0, grid)
            } else if (column & PostalGrid.blockMask) &+ step != (column &+ step) & PostalGrid.blockMask {
                // the neighbour lies in the next block
                scanner.scanColumns(grid, row: row, column &+ step, column &+ step, cache: &cache)
            }
        }
        // the rows above and below, as the scan's row loop would visit them
        let north = (1 - f - 1e-6) * rowMetres
        if north <= scanner.reach { scanner.visit(grid, row &+ 1, dy: north, cache: &cache) }
        let south = (f - 1e-6) * rowMetres
        if south <= scanner.reach && row > 0 { scanner.visit(grid, row &- 1, dy: south, cache: &cache) }
        return scanner.result
    }

    /// Calls `body` with every point in the cells of the rectangle holding the circle of
    /// `radius` metres (the second pass when a scan's buffer overflowed).
    func forEachPoint(_ grid: PostalGrid, radius: Double, _ body: (Candidate) -> Void) {
        let dLat = radius / 110_574.0 * 1.001 + 1e-9
        let dLng = radius / longitudeMetres(latitudeSpan: dLat) + 1e-9
        let g = grid.cellsPerDegree
        var cache = PostalGrid.BlockCache()
        for row in gridIndex((latitude - dLat + 90) * g)...gridIndex((latitude + dLat + 90) * g) {
            grid.forEachRange(row: row, col0: gridIndex((longitude - dLng + 180) * g),
                              col1: gridIndex((longitude + dLng + 180) * g), cache: &cache) { range in
                for p in range.start..<range.end {
                    let la = grid.latitudeUnits(range, p), lo = grid.longitudeUnits(range, p)
                    body(Candidate(code: PostalGrid.packedCode(grid.points[p]), latUnits: Int32(la), lngUnits: Int32(lo),
                                   squared: cheap.squared(la, lo)))
                }
            }
        }
    }
}
