#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The Canadian postal-code centroids of `data/postal_ca.bin`, memory-mapped, with a
/// nearest-centroid search by WGS84 geodesic distance.
///
/// The file (built by `scripts/build_postal_data.py`, layout in its docstring) sorts the
/// centroids into a grid of 1/400° cells. A search scans the cells of a rectangle that surely
/// holds every centroid within a radius, ranks them by a cheap local-plane distance, confirms
/// the few near the best with ``LocalDistance`` and its error bound, and asks PROJ only when
/// the bound leaves a tie, the 0.1 m rounding or the maximum distance undecided.
///
/// Thread safety: the mapping is read-only and the index holds no mutable state, so one
/// instance serves any number of threads.
public final class PostalIndex: @unchecked Sendable {
    /// The file the index reads.
    public let file: DataFile
    /// Number of distinct centroids (codes sharing one centroid count once).
    public var count: Int { pointCode.count }

    private let rowStart: UnsafeBufferPointer<UInt32>
    private let cellCol: UnsafeBufferPointer<UInt32>
    private let cellStart: UnsafeBufferPointer<UInt32>
    private let pointLat: UnsafeBufferPointer<Int32>
    private let pointLng: UnsafeBufferPointer<Int32>
    private let pointCode: UnsafeBufferPointer<UInt32>
    /// Grid cells per degree.
    private let grid: Double
    /// Coordinate units per degree.
    private let scale: Double

    public static let magic = "GEPOSTL1"
    public static let formatVersion: UInt32 = 1

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
        guard n > 0, c > 0, c <= n, (1...3600).contains(g), (1...10_000_000).contains(s) else {
            throw corrupt("implausible counts \(file.counts)")
        }
        var offset = 0
        func section<T>(_ t: T.Type, _ count: Int) throws(DataFileError) -> UnsafeBufferPointer<T> {
            let b = try file.array(of: t, at: offset, count: count)
            offset += (MemoryLayout<T>.stride * count + 7) & ~7
            return b
        }
        let rows = 180 * g
        rowStart = try section(UInt32.self, rows + 1)
        cellCol = try section(UInt32.self, c)
        cellStart = try section(UInt32.self, c + 1)
        pointLat = try section(Int32.self, n)
        pointLng = try section(Int32.self, n)
        pointCode = try section(UInt32.self, n)
        guard offset == file.payload.count else { throw corrupt("payload of \(file.payload.count) bytes, sections need \(offset)") }
        grid = Double(g)
        scale = Double(s)

        // structure: monotone offsets ending where they must, columns and values in range
        guard rowStart[0] == 0, Int(rowStart[rows]) == c, cellStart[0] == 0, Int(cellStart[c]) == n else {
            throw corrupt("index offsets do not span the cells and points")
        }
        for r in 0..<rows where rowStart[r] > rowStart[r + 1] { throw corrupt("row offsets decrease at row \(r)") }
        for i in 0..<c {
            guard cellStart[i] < cellStart[i + 1] else { throw corrupt("empty or reversed cell \(i)") }
            guard Int(cellCol[i]) < 360 * g else { throw corrupt("cell \(i) has column \(cellCol[i])") }
        }
        let maxLat = Int32(90 * s)
        let maxLng = Int32(180 * s)
        for i in 0..<n {
            guard abs(pointLat[i]) <= maxLat, abs(pointLng[i]) <= maxLng, pointCode[i] <= PostalCode.maxPacked else {
                throw corrupt("point \(i) out of range")
            }
        }
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
    /// - Complexity: proportional to the centroids within the searched radius: a few dozen in
    ///   a city, up to the cells of the whole `maxDistance` rectangle where there are none.
    public func nearest(latitude: Double, longitude: Double, maxDistance: Double) -> PostalMatch? {
        guard latitude.isFinite, longitude.isFinite, abs(latitude) <= 90, abs(longitude) <= 180,
              maxDistance >= 0 else { return nil }
        let p1 = latitude * LocalDistance.degree
        let sinP = sin(p1)
        let cosP = cos(p1)
        let w = 1 - LocalDistance.e2 * sinP * sinP
        let n1 = LocalDistance.a / w.squareRoot()
        let m1 = n1 * (1 - LocalDistance.e2) / w
        // metres per coordinate unit along each axis at the query's latitude
        let kLat = m1 * LocalDistance.degree / scale
        let kLng = n1 * cosP * LocalDistance.degree / scale
        let tanP = abs(sinP / cosP)
        let qy = latitude * scale
        let qx = longitude * scale

        var radius = Swift.min(400.0, maxDistance)
        while true {
            // A rectangle holding every point within `radius`: a degree of latitude is at least
            // 110,574 m, a degree of longitude at least 111,319.49·cos φ over the band.
            let dLat = radius / 110_574.0 * 1.001 + 1 / scale
            let phiMax = Swift.min(abs(latitude) + dLat, 89.999)
            let dLng = Swift.min(radius / (111_319.49 * cos(phiMax * LocalDistance.degree)) * 1.001 + 1 / scale, 360)
            // relative error of the cheap ranking distance, from the curvature over the band
            let dPhi = dLat * LocalDistance.degree
            let eps = 0.75 * (tanP + 0.03) * dPhi + 0.2 * dPhi * dPhi * (1 + tanP * tanP) + 1e-9
            let scan = Scan(index: self, qy: qy, qx: qx, kLat: kLat, kLng: kLng,
                            lat0: latitude - dLat, lat1: latitude + dLat, lng0: longitude - dLng, lng1: longitude + dLng)
            let best = scan.bestSquared()
            let bestCheap = best.squareRoot()
            let covered = radius >= maxDistance
            if best.isFinite && bestCheap * (1 + eps) <= radius {
                return decide(scan: scan, bestCheap: bestCheap, eps: eps, latitude: latitude, longitude: longitude,
                              maxDistance: maxDistance)
            }
            if covered {
                // everything within maxDistance was scanned: no centroid can be within it
                // unless the best is (decide() makes the final call against maxDistance)
                guard best.isFinite, bestCheap * (1 - eps) <= maxDistance else { return nil }
                return decide(scan: scan, bestCheap: bestCheap, eps: eps, latitude: latitude, longitude: longitude,
                              maxDistance: maxDistance)
            }
            let next = best.isFinite ? bestCheap * (1 + eps) * 1.01 : radius * 4
            radius = Swift.min(Swift.max(next, radius * 2), maxDistance)
        }
    }

    /// Picks the answer among the centroids whose cheap distance is within the ranking error
    /// of the best one.
    private func decide(scan: Scan, bestCheap: Double, eps: Double, latitude: Double, longitude: Double,
                        maxDistance: Double) -> PostalMatch? {
        let limit = bestCheap * (1 + eps) / (1 - eps)
        var candidates: [(index: Int, metres: Double, bound: Double)] = []
        scan.forEach(within: limit) { i in
            let lat = Double(pointLat[i]) / scale
            let lng = Double(pointLng[i]) / scale
            let d = LocalDistance.metres(lat1: latitude, lng1: longitude, lat2: lat, lng2: lng)
            candidates.append((i, d, LocalDistance.errorBound(distance: d, latitudeRadians: latitude * LocalDistance.degree)))
        }
        guard var best = candidates.min(by: { $0.metres < $1.metres || ($0.metres == $1.metres && pointCode[$0.index] < pointCode[$1.index]) })
        else { return nil }
        // contenders: candidates whose true distance may equal or beat the best's
        let contenders = candidates.filter { $0.metres - $0.bound <= best.metres + best.bound + 1e-6 }
        var exact: Double? = nil
        if contenders.count > 1 {
            // settle the tie with PROJ, as the contract does: nearest to 1e-6 m, then smallest code
            var winner: (index: Int, key: Int64, metres: Double)? = nil
            for c in contenders {
                let m = LocalDistance.geodesic(lat1: latitude, lng1: longitude,
                                               lat2: Double(pointLat[c.index]) / scale, lng2: Double(pointLng[c.index]) / scale)
                let key = DecimalRounding.scaledInteger(m, scale: 1e6)
                if let w = winner, (w.key, pointCode[w.index]) <= (key, pointCode[c.index]) { continue }
                winner = (c.index, key, m)
            }
            best = candidates.first { $0.index == winner!.index }!
            exact = winner!.metres
        }
        var metres = exact ?? best.metres
        if exact == nil {
            let undecided = DecimalRounding.tenths(metres - best.bound) != DecimalRounding.tenths(metres + best.bound)
                || (metres - best.bound <= maxDistance && metres + best.bound > maxDistance)
            if undecided {
                metres = LocalDistance.geodesic(lat1: latitude, lng1: longitude,
                                                lat2: Double(pointLat[best.index]) / scale,
                                                lng2: Double(pointLng[best.index]) / scale)
            }
        }
        guard metres <= maxDistance else { return nil }
        return PostalMatch(code: PostalCode(packed: pointCode[best.index]), distanceMetres: DecimalRounding.tenths(metres))
    }

    /// The grid cells of a latitude/longitude rectangle and the cheap squared distance of
    /// their points to the query.
    private struct Scan {
        let index: PostalIndex
        let qy: Double, qx: Double, kLat: Double, kLng: Double
        let r0: Int, r1: Int, c0: UInt32, c1: UInt32

        init(index: PostalIndex, qy: Double, qx: Double, kLat: Double, kLng: Double,
             lat0: Double, lat1: Double, lng0: Double, lng1: Double) {
            self.index = index
            self.qy = qy
            self.qx = qx
            self.kLat = kLat
            self.kLng = kLng
            let g = index.grid
            let maxRow = 180 * Int(g) - 1
            let maxCol = 360 * Int(g) - 1
            r0 = Swift.min(Swift.max(Int(((lat0 + 90) * g).rounded(.down)), 0), maxRow)
            r1 = Swift.min(Swift.max(Int(((lat1 + 90) * g).rounded(.down)), 0), maxRow)
            c0 = UInt32(Swift.min(Swift.max(Int(((lng0 + 180) * g).rounded(.down)), 0), maxCol))
            c1 = UInt32(Swift.min(Swift.max(Int(((lng1 + 180) * g).rounded(.down)), 0), maxCol))
        }

        @inline(__always) func squared(_ i: Int) -> Double {
            let dy = (Double(index.pointLat[i]) - qy) * kLat
            let dx = (Double(index.pointLng[i]) - qx) * kLng
            return dx * dx + dy * dy
        }

        /// Calls `body` with the index of every point in the rectangle's cells.
        @inline(__always) func forEachPoint(_ body: (Int) -> Void) {
            for r in r0...r1 {
                var lo = Int(index.rowStart[r])
                var hi = Int(index.rowStart[r + 1])
                // first cell of the row with column >= c0
                while lo < hi {
                    let mid = (lo + hi) >> 1
                    if index.cellCol[mid] < c0 { lo = mid + 1 } else { hi = mid }
                }
                let end = Int(index.rowStart[r + 1])
                var cell = lo
                while cell < end && index.cellCol[cell] <= c1 {
                    for p in Int(index.cellStart[cell])..<Int(index.cellStart[cell + 1]) { body(p) }
                    cell += 1
                }
            }
        }

        /// The smallest cheap squared distance in the rectangle (infinity when it is empty).
        func bestSquared() -> Double {
            var best = Double.infinity
            forEachPoint { p in
                let d = squared(p)
                if d < best { best = d }
            }
            return best
        }

        /// Calls `body` for every point whose cheap distance is at most `limit` metres.
        func forEach(within limit: Double, _ body: (Int) -> Void) {
            let l2 = limit * limit
            forEachPoint { p in if squared(p) <= l2 { body(p) } }
        }
    }
}

extension PostalIndex {
    /// One centroid: its smallest code and coordinates in degrees.
    public func centroid(_ i: Int) -> (code: PostalCode, latitude: Double, longitude: Double) {
        (PostalCode(packed: pointCode[i]), Double(pointLat[i]) / scale, Double(pointLng[i]) / scale)
    }

    /// Calls `body(index, latitude, longitude, code)` for every centroid, in file order.
    ///
    /// - Complexity: O(n).
    public func forEachCentroid(_ body: (Int, Double, Double, PostalCode) -> Void) {
        for i in 0..<count { body(i, Double(pointLat[i]) / scale, Double(pointLng[i]) / scale, PostalCode(packed: pointCode[i])) }
    }
}
