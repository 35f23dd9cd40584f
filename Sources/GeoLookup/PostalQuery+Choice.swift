import GeoMath
import GeoModel

/// The choice among a scan's candidates: the local distance and its error bound rank them,
/// the exact geodesic settles ties, the 0.1 m rounding and the maximum distance where the bound cannot.
extension PostalQuery {
    /// Picks the answer among the candidates whose cheap distance is within the ranking error
    /// of the best one: the local distance with its bound decides, the exact geodesic what it cannot.
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
            // settle the tie with the exact geodesic, as the contract does: nearest to 1e-6 m, then smallest code
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
