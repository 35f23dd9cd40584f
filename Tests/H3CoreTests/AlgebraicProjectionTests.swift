import TestSupport
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

@testable import H3Core

/// The trig-free projection of `latLngToCell` against the C library's path (`FaceIJK(_:resolution:)`,
/// itself checked against PyPI h3 in GoldenVectorTests and the CI differential check): it must
/// never give another hex, and must step aside where the two could differ.
struct AlgebraicProjectionTests {
    @Test("where it answers, the algebraic projection gives the C library's hex, at every resolution")
    func agreesWhereItAnswers() {
        var rng = SplitMix64(seed: 0x5EED_A1)
        var answered = 0, asked = 0
        // the whole sphere (uniform on it), and Canada's cities at the finest resolution
        var points = H3CellTests.randomPoints(400_000, seed: 0xFACE).map { ($0, Int.random(in: 0...15, using: &rng)) }
        for _ in 0..<200_000 {
            let point = LatLng(latitude: Double.random(in: 42...60, using: &rng), longitude: Double.random(in: -130 ... -60, using: &rng))
            points.append((point, 15))
        }
        for (point, res) in points {
            asked += 1
            guard let quick = AlgebraicProjection.hex(latitude: point.latitude, longitude: point.longitude, resolution: res)
            else { continue }
            answered += 1
            let faithful = FaceIJK(point, resolution: res)
            #expect(quick == faithful, "\(point) at resolution \(res)")
        }
        // it answers nearly always (the margin is about 6·10⁻⁵ of a hex at resolution 15)
        #expect(answered >= asked - asked / 1000, "answered \(answered) of \(asked)")
    }

    @Test("on cell edges and corners it steps aside or agrees", arguments: [0, 5, 9, 12, 15])
    func edges(res: Int) throws {
        var rng = SplitMix64(seed: 0xED6E + UInt64(res))
        var corners = 0, cornersDeclined = 0
        for point in H3CellTests.randomPoints(3_000, seed: 0xC0FFEE + UInt64(res)) {
            let cell = try H3Cell(point, resolution: try H3Resolution(res))
            let boundary = cell.boundary
            for k in boundary.indices {
                let a = boundary[k], b = boundary[(k + 1) % boundary.count]
                var probes = [a]
                // a point along the edge, interpolated in degrees: on the edge to within the
                // margin at fine resolutions, inside or outside the cell at coarse ones
                if abs(a.longitude - b.longitude) < 180 {
                    let t = Double.random(in: 0...1, using: &rng)
                    probes.append(LatLng(latitude: a.latitude + t * (b.latitude - a.latitude),
                                         longitude: a.longitude + t * (b.longitude - a.longitude)))
                }
                for (n, p) in probes.enumerated() {
                    if n == 0 { corners += 1 }
                    guard let quick = AlgebraicProjection.hex(latitude: p.latitude, longitude: p.longitude, resolution: res) else {
                        if n == 0 { cornersDeclined += 1 }
                        continue
                    }
                    #expect(quick == FaceIJK(p, resolution: res), "\(p) at resolution \(res)")
                }
            }
        }
        // a corner lies on three hexes' edges to the last bits: the margin must turn it away
        #expect(cornersDeclined * 100 >= corners * 99, "declined \(cornersDeclined) of \(corners) corners")
    }

    @Test("the candidate grid lists the nearest face of every point")
    func candidateFaces() {
        var rng = SplitMix64(seed: 0xCA11)
        let step = AlgebraicProjection.candidateCellDegrees
        for _ in 0..<300_000 {
            // a point of a random cell, often on its border
            let row = Int.random(in: 0..<AlgebraicProjection.candidateRows, using: &rng)
            let column = Int.random(in: 0..<AlgebraicProjection.candidateColumns, using: &rng)
            let u = Bool.random(using: &rng) ? Double(Int.random(in: 0...1, using: &rng)) : Double.random(in: 0...1, using: &rng)
            let lat = -90 + (Double(row) + u) * step
            let lng = -180 + (Double(column) + Double.random(in: 0...1, using: &rng)) * step
            let v = Vec3(latitudeRadians: lat * .pi / 180, longitudeRadians: lng * .pi / 180)
            let nearest = IcosahedronFaces.closest(to: v).face
            var packed = AlgebraicProjection.tables.candidates[row * AlgebraicProjection.candidateColumns + column]
            var listed: [Int] = []
            for _ in 0..<Int(packed & 0xFF) {
                packed >>= 8
                listed.append(Int(packed & 0xFF))
            }
            #expect(listed.contains(nearest), "\(lat), \(lng): face \(nearest) not in \(listed)")
        }
    }
}
