#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GeoBridge
import GeoMath

/// One nearest-centroid search over a ``PostalGrid``: the query's constants, the scans of
/// growing radius and the final decision.
struct PostalQuery {
    /// 40 candidates of 24 bytes, and a spare slot the scan writes every point it examines to
    /// (see ``Scanner/consider(_:_:_:_:)``), stay within the 1,024 bytes Swift keeps on the stack
    /// on Linux.
    static let bufferCapacity = 41

    /// A point of the grid: its code, its coordinates in units and its cheap squared distance to the query.
    struct Candidate {
        /// Its packed ``PostalCode``.
        var code: UInt32
        var latUnits: Int32
        var lngUnits: Int32
        var squared: Double
    }

    /// What a scan found, and how much to trust the cheap distance over its extent.
    struct ScanResult {
        /// Relative error bound of the cheap distance over the scanned band.
        var eps = 0.0
        var bestSquared = Double.infinity
        var buffered = 0
        var overflowed = false

        /// The coordinates in units of the point with the best cheap distance, from the buffer
        /// it was kept in (`nil` when none was found, or when the buffer overflowed and may
        /// have dropped it).
        func best(in buffer: UnsafeMutableBufferPointer<Candidate>) -> (latUnits: Int, lngUnits: Int)? {
            guard !overflowed else { return nil }
            for c in buffer[0..<buffered] where c.squared == bestSquared {
                return (Int(c.latUnits), Int(c.lngUnits))
            }
            return nil
        }
    }

    /// The cheap squared distance from the query to points given in coordinate units: the
    /// local plane with the query's radii of curvature (its error bound is the scan's `eps`).
    struct CheapDistance {
        /// The query in coordinate units and the metres per unit along each axis.
        let qy: Double, qx: Double, kLat: Double, kLng: Double

        @inline(__always) func squared(_ latUnits: Int, _ lngUnits: Int) -> Double {
            let dy = (Double(latUnits) - qy) * kLat
            let dx = (Double(lngUnits) - qx) * kLng
            return dx * dx + dy * dy
        }
    }

    /// Grid cells per degree (the query keeps no copy of the grid: the grid is an argument of
    /// each step, as a copy of it in every query cost a memcpy a search).
    let cellsPerDegree: Double
    /// The query with its trigonometry, for local distances.
    let point: LocalDistance.Point
    let cheap: CheapDistance
    /// Coordinate units per degree.
    let scale: Double

    var latitude: Double { point.latitude }
    var longitude: Double { point.longitude }
    /// |tan φ|, sin φ and cos φ at the query.
    var tanP: Double { point.absTanLatitude }
    var sinP: Double { point.sinLatitude }
    var cosP: Double { point.cosLatitude }

    init(grid: PostalGrid, latitude: Double, longitude: Double) {
        cellsPerDegree = grid.cellsPerDegree
        point = LocalDistance.Point(latitude: latitude, longitude: longitude)
        scale = Double(grid.unitsPerDegree)
        let w = 1 - LocalDistance.e2 * point.sinLatitude * point.sinLatitude
        let n1 = LocalDistance.a / w.squareRoot()
        let m1 = n1 * (1 - LocalDistance.e2) / w
        cheap = CheapDistance(qy: latitude * scale, qx: longitude * scale, kLat: m1 * LocalDistance.degree / scale,
                              kLng: n1 * point.cosLatitude * LocalDistance.degree / scale)
    }

    /// Metres per degree of longitude, a lower bound over the band `dLat` degrees around the
    /// query: 111,319.49·cos φmax, with cos φmax by angle addition for small steps.
    @inline(__always) func longitudeMetres(latitudeSpan dLat: Double) -> Double {
        let phiMax = Swift.min(abs(latitude) + dLat, 89.999)
        let step = (phiMax - abs(latitude)) * LocalDistance.degree
        let cosMax = step < 0.01
            ? cosP * (1 - step * step * 0.5) - abs(sinP) * step * 1.0001
            : cos(phiMax * LocalDistance.degree)
        return 111_319.49 * Swift.max(cosMax, 1.7e-5) / 1.001
    }

    /// The exact geodesic (PROJ's `geod_inverse`), for the decisions the local distance's bound
    /// leaves open.
    static func geodesic(lat1: Double, lng1: Double, lat2: Double, lng2: Double) -> Double {
        Geodesic.wgs84.distance(from: GeoPoint(latitude: lat1, longitude: lng1), to: GeoPoint(latitude: lat2, longitude: lng2))
    }

    /// Floor of a non-negative grid coordinate (truncation: no libm call).
    @inline(__always) static func gridIndex(_ x: Double) -> Int { Int(Swift.max(x, 0)) }
    @inline(__always) func gridIndex(_ x: Double) -> Int { Self.gridIndex(x) }

    /// The query's grid row and column.
    var homeRow: Int { gridIndex((latitude + 90) * cellsPerDegree) }
    var homeColumn: Int { gridIndex((longitude + 180) * cellsPerDegree) }

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

    /// The state of one scan, as a value with mutating steps (no closure captures mutable
    /// state, so the inner loop carries no dynamic exclusivity checks). It keeps only the
    /// query's few constants, and takes the grid as an argument: copying either whole into it
    /// was a tenth of a search (memcpy).
    struct Scanner {
        /// The query's cheap distance.
        let cheap: CheapDistance
        let radius: Double
        let buffer: UnsafeMutableBufferPointer<Candidate>
        /// Grid columns per metre east-west (an upper bound over the scanned band), and the
        /// query's grid column coordinate.
        let columnsPerMetre: Double, x: Double
        let factor2: Double
        var result = ScanResult()
        /// The squared cheap distance within which a point may still rank with the best: the
        /// best's, widened by the ranking error (infinite until a point is found).
        /// Kept as `result.bestSquared * factor2`, set by ``consider(_:_:_:_:)`` (stored: as a
        /// computed property the sweep's exit test cost 1–2 % more instructions, measured).
        var threshold = Double.infinity
        /// Metres: the circle the rows are clipped to.
        /// (Brought up to date after each run of points, see ``updateReach()``.)
        var reach: Double
        /// The points the seed read, per row from `seedRow0` (at most three rows), and the run
        /// the current row must skip.
        var seedRow0 = Int.min, seedRow1 = Int.min, seedColumn0 = 0, seedColumn1 = -1
        var seedRuns = SeedRuns()
        var excluded = Skip()
        /// The last run of points scanned (for recording the seed's).
        var lastRun = Skip()
        /// The query's grid row, and its place in it from the south edge, in rows (0..<1): the
        /// rows' distances count from it, and a sweep of a home-row cell starts there, as a
        /// fraction of the cell's points.
        let homeRow: Int, homePlace: Double

        @inline(__always) init(query: PostalQuery, radius: Double, span: Double, buffer: UnsafeMutableBufferPointer<Candidate>) {
            cheap = query.cheap
            let y = (query.latitude + 90) * query.cellsPerDegree
            homeRow = PostalQuery.gridIndex(y)
            homePlace = y - Double(homeRow)
            self.radius = radius
            self.buffer = buffer
            reach = radius
            let dLat = radius / 110_574.0 * 1.001 + 1e-9
            columnsPerMetre = query.cellsPerDegree / query.longitudeMetres(latitudeSpan: dLat)
            x = (query.longitude + 180) * query.cellsPerDegree
            // the cheap distance uses the query's radii of curvature: its relative error grows
            // with the latitude span (d ln(N cos φ)/dφ ≈ −tan φ, d ln M/dφ < 0.01)
            let dPhi = (span / 110_574.0 * 1.001 + 1e-9) * LocalDistance.degree
            result.eps = 0.75 * (query.tanP + 0.03) * dPhi + 0.2 * dPhi * dPhi * (1 + query.tanP * query.tanP) + 1e-9
            let factor = (1 + result.eps) / (1 - result.eps)
            factor2 = factor * factor
        }

        /// Scans one row whose nearest edge lies `dy` metres (at least) from the query, clipped
        /// to the chord of the reach, less the seed cells.
        @inline(__always) mutating func visit(_ grid: PostalGrid, _ row: Int, dy: Double, cache: inout PostalGrid.BlockCache) {
            let dy = Swift.max(dy, 0)
            let half = (reach * reach - dy * dy).squareRoot() * columnsPerMetre + 1e-6
            let col0 = PostalQuery.gridIndex(x - half)
            let col1 = PostalQuery.gridIndex(x + half)
            // the seed has read every point of a chord inside it (one branch: all four differences
            // are non-negative; with no seed, the first is negative, in wrapping arithmetic)
            if (row &- seedRow0) | (seedRow1 &- row) | (col0 &- seedColumn0) | (seedColumn1 &- col1) >= 0 { return }
            excluded = seedRuns[row &- seedRow0]
            scanColumns(grid, row: row, col0, col1, cache: &cache)
        }

        /// Scans the cells of one grid row, columns `col0...col1`.
        @inline(__always) mutating func scanColumns(_ grid: PostalGrid, row: Int, _ col0: Int, _ col1: Int, cache: inout PostalGrid.BlockCache) {
            let side = row &- homeRow
            grid.forEachRange(row: row, col0: col0, col1: col1, cache: &cache) { r in scanRange(r, side: side, grid) }
        }

        /// Scans a run of cells of one row, less the cells the seed has read (one run per row,
        /// whole cells), each sorted by latitude: a row north of the query's (`side` > 0) from its
        /// south end, a row south of it from its north end, the query's own row from the query's
        /// place outward; a sweep stops where the latitude difference alone puts every point left
        /// beyond the threshold (a point's cheap squared distance is at least its `dy²`, so those
        /// points could not have been buffered: the result is the whole scan's).
        @inline(__always) mutating func scanRange(_ r: PostalGrid.Range, side: Int, _ grid: PostalGrid) {
            lastRun = Skip(start: r.start, end: r.end)
            var cell = r.firstCell
            var s = r.start
            while s < r.end {
                cell &+= 1
                let e = Int(truncatingIfNeeded: grid.cellStart[cell])
                // (s < excluded.start || e > excluded.end, as one branch)
                if (s &- excluded.start) | (excluded.end &- e) < 0 {
                    if side > 0 {
                        sweepNorth(r, from: s, to: e, grid.points)
                    } else if side < 0 {
                        sweepSouth(r, from: s, to: e, grid.points)
                    } else {
                        // a guess of where the query's latitude falls among the cell's points
                        // (short of the end: the product may round up to it)
                        let g = s &+ Int(Double(e &- s) * Swift.min(homePlace, 0.999_999))
                        sweepNorth(r, from: g, to: e, grid.points)
                        sweepSouth(r, from: s, to: g, grid.points)
                    }
                }
                s = e
            }
            updateReach()
        }

        /// Sets the reach from the best distance so far (once per run of points, not per point).
        @inline(__always) mutating func updateReach() {
            reach = Swift.min(radius, result.bestSquared.squareRoot() * (1 + result.eps) * 1.001 + 1e-3)
        }

        /// Points `from..<end` in ascending order, until one north of the query lies beyond the
        /// threshold by latitude alone.
        @inline(__always) mutating func sweepNorth(_ r: PostalGrid.Range, from: Int, to end: Int, _ points: UnsafeBufferPointer<UInt64>) {
            var p = from
            while p < end {
                let w = points[p]
                let la = r.latitudeUnits(w)
                let dy = (Double(la) - cheap.qy) * cheap.kLat
                // (dy > 0 && dy² > threshold, as one branch)
                if dy * abs(dy) > threshold { return }
                consider(w, la, r.longitudeUnits(w), dy * dy)
                p &+= 1
            }
        }

        /// Points `from..<end` in descending order, until one south of the query lies beyond the
        /// threshold by latitude alone.
        @inline(__always) mutating func sweepSouth(_ r: PostalGrid.Range, from: Int, to end: Int, _ points: UnsafeBufferPointer<UInt64>) {
            var p = end
            while p > from {
                p &-= 1
                let w = points[p]
                let la = r.latitudeUnits(w)
                let dy = (Double(la) - cheap.qy) * cheap.kLat
                // (dy < 0 && dy² > threshold, as one branch)
                if -dy * abs(dy) > threshold { return }
                consider(w, la, r.longitudeUnits(w), dy * dy)
            }
        }

        /// Ranks a point (its word `w`, coordinates in units, `dy2` its squared north-south part): a new
        /// best tightens the threshold (and, once the run is done, the reach); a point within the
        /// threshold is buffered.
        ///
        /// Whether a point is the best so far, or within the threshold, is a coin toss the branch
        /// predictor loses (measured: about 5 mispredictions a search between the two), so no branch decides either:
        /// the best is a running minimum, and every point is written to the next free slot (the
        /// buffer has a spare one) and counted only when it is within the threshold. Points the
        /// threshold has since left behind stay in the buffer (``decide(_:_:_:radius:maxDistance:)``
        /// filters by the final one) until the buffer fills; then they are dropped.
        @inline(__always) mutating func consider(_ w: UInt64, _ la: Int, _ lo: Int, _ dy2: Double) {
            let dx = (Double(lo) - cheap.qx) * cheap.kLng
            // (the same rounding as ``CheapDistance/squared(_:_:)``)
            let d = dx * dx + dy2
            result.bestSquared = Swift.min(d, result.bestSquared)
            threshold = result.bestSquared * factor2
            let n = result.buffered
            buffer[n] = Candidate(code: PostalGrid.packedCode(w), latUnits: Int32(la), lngUnits: Int32(lo), squared: d)
            result.buffered = n &+ (d <= threshold ? 1 : 0)
            if result.buffered == buffer.count { compact() }
        }

        /// The buffer is full (the spare slot too): keeps the points within the threshold, and
        /// marks the scan overflowed when more than the buffer's capacity are.
        @inline(never) mutating func compact() {
            var kept = 0
            for k in 0..<result.buffered where buffer[k].squared <= threshold {
                buffer[kept] = buffer[k]
                kept += 1
            }
            if kept == buffer.count {
                result.overflowed = true
                kept -= 1
            }
            result.buffered = kept
        }
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

    /// Picks the answer among the candidates whose cheap distance is within the ranking error
    /// of the best one: the local distance with its bound decides, PROJ settles what it cannot.
    func decide(_ grid: PostalGrid, _ scan: ScanResult, _ buffer: UnsafeMutableBufferPointer<Candidate>, radius: Double,
                maxDistance: Double) -> PostalMatch? {
        let limit = scan.bestSquared.squareRoot() * (1 + scan.eps) / (1 - scan.eps)
        let l2 = limit * limit
        guard scan.overflowed else {
            return choose(UnsafeMutableBufferPointer(rebasing: buffer[0..<scan.buffered]), limit: limit, maxDistance: maxDistance)
        }
        // the buffer overflowed (a rare crowd of equidistant centroids): collect them all again
        var overflow: [Candidate] = []
        // (every candidate lies within `limit` cheap metres, so within this radius)
        forEachPoint(grid, radius: limit * (1 + scan.eps) * 1.001 + 1e-3) { c in if c.squared <= l2 { overflow.append(c) } }
        return overflow.withUnsafeMutableBufferPointer { choose($0, limit: limit, maxDistance: maxDistance) }
    }

    /// The nearest of the candidates within `limit` (cheap metres) by the contract's rule.
    private func choose(_ all: UnsafeMutableBufferPointer<Candidate>, limit: Double, maxDistance: Double) -> PostalMatch? {
        let l2 = limit * limit
        func lat(_ c: Candidate) -> Double { Double(c.latUnits) / scale }
        func lng(_ c: Candidate) -> Double { Double(c.lngUnits) / scale }
        func code(_ k: Int) -> PostalCode { PostalCode(packed: all[k].code) }
        var best = -1
        var bestMetres = Double.infinity
        var inRange = 0
        for k in all.indices where all[k].squared <= l2 {
            let d = LocalDistance.metres(from: point, lat2: lat(all[k]), lng2: lng(all[k]))
            all[inRange] = all[k]
            all[inRange].squared = d  // from here on: the local distance in metres
            if d < bestMetres || (d == bestMetres && code(inRange) < code(best)) {
                best = inRange
                bestMetres = d
            }
            inRange += 1
        }
        guard best >= 0 else { return nil }
        let bestBound = LocalDistance.errorBound(distance: bestMetres, absTan: tanP)
        // contenders: candidates whose true distance may equal or beat the best's
        func isContender(_ k: Int) -> Bool {
            all[k].squared - LocalDistance.errorBound(distance: all[k].squared, absTan: tanP) <= bestMetres + bestBound + 1e-6
        }
        var metres = bestMetres
        var contenders = 0
        for k in 0..<inRange where isContender(k) { contenders += 1 }
        // the 0.1 m rounding is decided when no half tenth lies within the bound (the product's
        // rounding is far below the 1e-9 margin): a truncation each, not two exact roundings
        let t = metres * 10 + 0.5, w = bestBound * 10 + 1e-9
        if contenders > 1 {
            // settle the tie with PROJ, as the contract does: nearest to 1e-6 m, then smallest code
            var winner: (k: Int, key: Int64, metres: Double)? = nil
            for k in 0..<inRange where isContender(k) {
                let m = PostalQuery.geodesic(lat1: latitude, lng1: longitude, lat2: lat(all[k]), lng2: lng(all[k]))
                let key = DecimalRounding.scaledInteger(m, scale: 1e6)
                if let w = winner, (w.key, code(w.k)) <= (key, code(k)) { continue }
                winner = (k, key, m)
            }
            best = winner!.k
            metres = winner!.metres
        } else if Int(Swift.max(t - w, 0)) != Int(t + w)
            || (metres - bestBound <= maxDistance && metres + bestBound > maxDistance) {
            // the bound leaves the 0.1 m rounding or the limit undecided
            metres = PostalQuery.geodesic(lat1: latitude, lng1: longitude, lat2: lat(all[best]), lng2: lng(all[best]))
        }
        guard metres <= maxDistance else { return nil }
        return PostalMatch(code: code(best), distanceMetres: DecimalRounding.tenths(metres))
    }
}
