import GeoMath

extension PostalQuery {
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
}
