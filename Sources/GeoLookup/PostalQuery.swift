#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One nearest-centroid search over a ``PostalGrid``: the query's constants, the scans of
/// growing radius and the final decision.
struct PostalQuery {
    /// 40 candidates of 24 bytes stay within the 1,024 bytes Swift keeps on the stack on Linux.
    static let bufferCapacity = 40

    /// A point of the grid, its coordinates in units and its cheap squared distance to the query.
    struct Candidate {
        var index: Int32
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
    }

    let grid: PostalGrid
    let latitude: Double, longitude: Double
    /// The query with its trigonometry, for local distances.
    let point: LocalDistance.Point
    /// |tan φ|, sin φ and cos φ at the query.
    let tanP: Double, sinP: Double, cosP: Double
    /// The query in coordinate units and the metres per unit along each axis.
    let qy: Double, qx: Double, kLat: Double, kLng: Double
    let scale: Double

    init(grid: PostalGrid, latitude: Double, longitude: Double) {
        self.grid = grid
        self.latitude = latitude
        self.longitude = longitude
        point = LocalDistance.Point(latitude: latitude, longitude: longitude)
        sinP = point.sinLatitude
        cosP = point.cosLatitude
        tanP = point.absTanLatitude
        scale = Double(grid.unitsPerDegree)
        let w = 1 - LocalDistance.e2 * sinP * sinP
        let n1 = LocalDistance.a / w.squareRoot()
        let m1 = n1 * (1 - LocalDistance.e2) / w
        kLat = m1 * LocalDistance.degree / scale
        kLng = n1 * cosP * LocalDistance.degree / scale
        qy = latitude * scale
        qx = longitude * scale
    }

    @inline(__always) func squared(_ latUnits: Int, _ lngUnits: Int) -> Double {
        let dy = (Double(latUnits) - qy) * kLat
        let dx = (Double(lngUnits) - qx) * kLng
        return dx * dx + dy * dy
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

    /// Floor of a non-negative grid coordinate (truncation: no libm call).
    @inline(__always) func gridIndex(_ x: Double) -> Int { Int(Swift.max(x, 0)) }

    /// Scans the cells that may hold a point within `radius` metres, rows outward from the
    /// query's, each row clipped to the circle of the radius or, once a point is found, of the
    /// best distance so far. Lower bounds keep it exact: a degree of latitude is at least
    /// 110,574 m, a degree of longitude at least ``longitudeMetres(latitudeSpan:)``. Points
    /// within the running best's ranking error go to `buffer`.
    @inline(__always) func scan(radius: Double, into buffer: UnsafeMutableBufferPointer<Candidate>) -> ScanResult {
        var scanner = Scanner(query: self, radius: radius, buffer: buffer)
        let g = grid.cellsPerDegree
        let home = gridIndex((latitude + 90) * g)
        let firstRow = gridIndex((latitude - scanner.dLat + 90) * g)
        let lastRow = gridIndex((latitude + scanner.dLat + 90) * g)
        // rows outward from the query's: home, then home ± 1, home ± 2, …
        _ = scanner.visit(home)
        var k = 1
        var north = true
        var south = true
        while north || south {
            north = north && home + k <= lastRow && scanner.visit(home + k)
            south = south && home - k >= firstRow && scanner.visit(home - k)
            k += 1
        }
        return scanner.result
    }

    /// The state of one scan, as a value with mutating steps (no closure captures mutable
    /// state, so the inner loop carries no dynamic exclusivity checks).
    struct Scanner {
        let q: PostalQuery
        let radius: Double
        let buffer: UnsafeMutableBufferPointer<Candidate>
        /// Half the latitude span in degrees, and metres per degree of longitude (lower bound).
        let dLat: Double, lngMetres: Double
        let factor2: Double
        var result = ScanResult()
        var threshold = Double.infinity
        /// Metres: the circle the rows are clipped to.
        var reach: Double

        @inline(__always) init(query: PostalQuery, radius: Double, buffer: UnsafeMutableBufferPointer<Candidate>) {
            q = query
            self.radius = radius
            self.buffer = buffer
            reach = radius
            dLat = radius / 110_574.0 * 1.001 + 1e-9
            lngMetres = query.longitudeMetres(latitudeSpan: dLat)
            // the cheap distance uses the query's radii of curvature: its relative error grows
            // with the latitude span (d ln(N cos φ)/dφ ≈ −tan φ, d ln M/dφ < 0.01)
            let dPhi = dLat * LocalDistance.degree
            result.eps = 0.75 * (query.tanP + 0.03) * dPhi + 0.2 * dPhi * dPhi * (1 + query.tanP * query.tanP) + 1e-9
            let factor = (1 + result.eps) / (1 - result.eps)
            factor2 = factor * factor
        }

        /// Scans one row; false when the row lies beyond the reach (so do all rows past it).
        mutating func visit(_ row: Int) -> Bool {
            let g = q.grid.cellsPerDegree
            // nearest latitude of the row band to the query, as a lower bound in metres
            let bandLo = Double(row) / g - 90
            let bandHi = Double(row + 1) / g - 90
            let dy = Swift.max(0, Swift.max(bandLo - q.latitude, q.latitude - bandHi)) * 110_574.0
            if dy > reach { return false }
            let halfWidth = ((reach * reach - dy * dy).squareRoot() / lngMetres) + 1e-9
            let col0 = q.gridIndex((q.longitude - halfWidth + 180) * g)
            let col1 = q.gridIndex((q.longitude + halfWidth + 180) * g)
            // a copy of the grid, so the closure's only access to `self` is the mutation
            let grid = q.grid
            grid.forEachCell(row: row, col0: col0, col1: col1) { cell in self.scanCell(cell) }
            return true
        }

        @inline(__always) mutating func scanCell(_ cell: PostalGrid.Cell) {
            // points are sorted by latitude inside a cell: read only the band within the reach
            // (in units: the cheap latitude term never exceeds the true distance by more than eps)
            let half = reach / q.kLat * (1 + 2 * result.eps) * 1.001 + 1
            let lowest = q.qy - half - Double(cell.latOrigin)
            let highest = q.qy + half - Double(cell.latOrigin)
            guard highest >= 0, lowest <= 255 else { return }
            var p = cell.start
            if lowest > 0 {
                // first point with offset >= lowest (offsets are 0...255)
                let whole = UInt64(lowest)  // ceiling of a positive value, without libm
                let bound = (Double(whole) < lowest ? whole + 1 : whole) << 32
                var lo = cell.start, hi = cell.end
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if q.grid.points[mid] & 0xFF_0000_0000 < bound { lo = mid + 1 } else { hi = mid }
                }
                p = lo
            }
            let top = Int(Swift.min(highest, 255))
            while p < cell.end {
                let record = q.grid.points[p]
                let dlat = Int((record >> 32) & 0xFF)
                if dlat > top { break }
                let la = cell.latOrigin + dlat
                let lo = cell.lngOrigin + Int((record >> 40) & 0xFF)
                let d = q.squared(la, lo)
                if d <= threshold {
                    if d < result.bestSquared {
                        result.bestSquared = d
                        threshold = d * factor2
                        reach = Swift.min(radius, d.squareRoot() * (1 + result.eps) * 1.001 + 1e-3)
                        // drop buffered points now beyond the threshold
                        var kept = 0
                        for k in 0..<result.buffered where buffer[k].squared <= threshold {
                            buffer[kept] = buffer[k]
                            kept += 1
                        }
                        result.buffered = kept
                    }
                    if result.buffered < buffer.count {
                        buffer[result.buffered] = Candidate(index: Int32(p), latUnits: Int32(la), lngUnits: Int32(lo), squared: d)
                        result.buffered += 1
                    } else {
                        result.overflowed = true
                    }
                }
                p += 1
            }
        }
    }

    /// Calls `body` with every point in the cells of the rectangle holding the circle of
    /// `radius` metres (the second pass when a scan's buffer overflowed).
    func forEachPoint(radius: Double, _ body: (Candidate) -> Void) {
        let dLat = radius / 110_574.0 * 1.001 + 1e-9
        let dLng = radius / longitudeMetres(latitudeSpan: dLat) + 1e-9
        let g = grid.cellsPerDegree
        for row in gridIndex((latitude - dLat + 90) * g)...gridIndex((latitude + dLat + 90) * g) {
            grid.forEachCell(row: row, col0: gridIndex((longitude - dLng + 180) * g),
                             col1: gridIndex((longitude + dLng + 180) * g)) { cell in
                for p in cell.start..<cell.end {
                    let la = grid.latitudeUnits(cell, p), lo = grid.longitudeUnits(cell, p)
                    body(Candidate(index: Int32(p), latUnits: Int32(la), lngUnits: Int32(lo), squared: squared(la, lo)))
                }
            }
        }
    }

    /// Picks the answer among the candidates whose cheap distance is within the ranking error
    /// of the best one: the local distance with its bound decides, PROJ settles what it cannot.
    func decide(_ scan: ScanResult, _ buffer: UnsafeMutableBufferPointer<Candidate>, radius: Double,
                maxDistance: Double) -> PostalMatch? {
        let limit = scan.bestSquared.squareRoot() * (1 + scan.eps) / (1 - scan.eps)
        let l2 = limit * limit
        guard scan.overflowed else {
            return choose(UnsafeMutableBufferPointer(rebasing: buffer[0..<scan.buffered]), limit: limit, maxDistance: maxDistance)
        }
        // the buffer overflowed (a rare crowd of equidistant centroids): collect them all again
        var overflow: [Candidate] = []
        forEachPoint(radius: radius) { c in if c.squared <= l2 { overflow.append(c) } }
        return overflow.withUnsafeMutableBufferPointer { choose($0, limit: limit, maxDistance: maxDistance) }
    }

    /// The nearest of the candidates within `limit` (cheap metres) by the contract's rule.
    private func choose(_ all: UnsafeMutableBufferPointer<Candidate>, limit: Double, maxDistance: Double) -> PostalMatch? {
        let l2 = limit * limit
        func lat(_ c: Candidate) -> Double { Double(c.latUnits) / scale }
        func lng(_ c: Candidate) -> Double { Double(c.lngUnits) / scale }
        func code(_ k: Int) -> PostalCode { grid.code(Int(all[k].index)) }
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
        if (0..<inRange).lazy.filter(isContender).count > 1 {
            // settle the tie with PROJ, as the contract does: nearest to 1e-6 m, then smallest code
            var winner: (k: Int, key: Int64, metres: Double)? = nil
            for k in 0..<inRange where isContender(k) {
                let m = LocalDistance.geodesic(lat1: latitude, lng1: longitude, lat2: lat(all[k]), lng2: lng(all[k]))
                let key = DecimalRounding.scaledInteger(m, scale: 1e6)
                if let w = winner, (w.key, code(w.k)) <= (key, code(k)) { continue }
                winner = (k, key, m)
            }
            best = winner!.k
            metres = winner!.metres
        } else if DecimalRounding.tenths(metres - bestBound) != DecimalRounding.tenths(metres + bestBound)
            || (metres - bestBound <= maxDistance && metres + bestBound > maxDistance) {
            // the bound leaves the 0.1 m rounding or the limit undecided
            metres = LocalDistance.geodesic(lat1: latitude, lng1: longitude, lat2: lat(all[best]), lng2: lng(all[best]))
        }
        guard metres <= maxDistance else { return nil }
        return PostalMatch(code: code(best), distanceMetres: DecimalRounding.tenths(metres))
    }
}
