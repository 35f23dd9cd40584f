import H3Core
import BenchmarkSupport

/// The inputs of the H3 API benchmarks (`H3APIBenchmarks.swift`): compactCells, gridDistance,
/// gridRing, cellArea and cellToVertexes (polygonToCells' polygon is `CityPolygon`, in
/// H3PolygonBenchmarks.swift).
///
/// `anchors/h3_api_anchor.py` builds the very same sets for h3-py and polars-h3 (the same
/// SplitMix64 streams, seeds and steps, in the same order), so that every side measures the same
/// cells: change one, change the other. The sets are smaller than ``BenchmarkInputs/count`` so
/// that the anchor's Python loops stay short; an iteration takes the next
/// ``BenchmarkInputs/scalingFactor`` inputs, cycling, as the other H3 benchmarks do.
enum H3APIInputs {
    /// How many cells (and pairs) the sets hold: the first `count` of
    /// ``BenchmarkInputs/hexagonPoints``.
    static let count = 100_000

    /// The seed of the gridDistance pairs' stream: ``BenchmarkInputs/seed`` XOR the bytes of
    /// "griddist".
    static let distanceSeed: UInt64 = BenchmarkInputs.seed ^ 0x6772_6964_6469_7374

    /// The seed of the compactCells sets' shuffle: ``BenchmarkInputs/seed`` XOR the bytes of
    /// "compacts".
    static let compactSeed: UInt64 = BenchmarkInputs.seed ^ 0x636F_6D70_6163_7473

    /// The farthest grid distance of a gridDistance pair.
    static let maxPairDistance = 8

    /// How many compactCells sets there are; each holds ``compactSetSize`` cells.
    static let compactSets = 100

    /// The cells of one compactCells set: one iteration compacts one set, so the per-operation
    /// figures are per input cell.
    static var compactSetSize: Int { BenchmarkInputs.scalingFactor.rawValue }

    private static let resolution9 = H3Resolution(rawValue: 9)!

    /// What each set must sum to (its indexes added modulo 2⁶⁴; the compactCells sets' weighted
    /// by their place, 1-based, in the sets laid end to end): `anchors/h3_api_anchor.py` checks
    /// its own sets against the same numbers (`INPUT_DIGESTS`), so that the two sides cannot
    /// drift apart unseen. Change them only with the inputs, on both sides.
    static let resolution9CellsDigest: UInt64 = 0x6606_d008_5dfe_7960
    static let destinationsDigest: UInt64 = 0x6612_670a_3842_7960
    static let compactCellSetsDigest: UInt64 = 0xacdf_b91f_476d_4ab0

    private static func check(_ name: String, _ digest: UInt64, _ expected: UInt64) {
        precondition(digest == expected, "H3APIInputs.\(name) sums to 0x\(String(digest, radix: 16)), not "
                     + "0x\(String(expected, radix: 16)): the inputs are not anchors/h3_api_anchor.py's")
    }

    /// The resolution-9 cells of the first ``count`` hexagon-area points.
    static let resolution9Cells: [H3Cell] = {
        let cells = BenchmarkInputs.hexagonPoints(count: count).map { try! H3Cell($0, resolution: resolution9) }
        check("resolution9Cells", cells.reduce(0) { $0 &+ $1.rawValue }, resolution9CellsDigest)
        return cells
    }()

    /// A pair of resolution-9 cells, 1 to ``maxPairDistance`` grid steps apart.
    struct Pair: Sendable {
        let origin: H3Cell
        let destination: H3Cell
        let distance: Int
    }

    /// For each of ``resolution9Cells``, in order: a distance d = 1 + next() % 8, then the
    /// destination, the cell at index next() % n of the origin's gridRing(k: d) sorted ascending
    /// (n cells; the sort makes the pick independent of the ring's order).
    static let distancePairs: [Pair] = {
        var rng = SplitMix64(seed: distanceSeed)
        let pairs = resolution9Cells.map { origin in
            let distance = Int(rng.next() % UInt64(maxPairDistance)) + 1
            let ring = try! origin.gridRing(k: distance).sorted()
            let destination = ring[Int(rng.next() % UInt64(ring.count))]
            return Pair(origin: origin, destination: destination, distance: distance)
        }
        check("distancePairs", pairs.reduce(0) { $0 &+ $1.destination.rawValue }, destinationsDigest)
        // the pairs are what they say, and none fails (which would measure the error path)
        for pair in pairs {
            precondition(try! pair.origin.gridDistance(to: pair.destination) == pair.distance,
                         "gridDistance of \(pair.origin) and \(pair.destination) is not \(pair.distance)")
        }
        return pairs
    }()

    /// ``compactSets`` sets of ``compactSetSize`` distinct resolution-9 cells, each compacting to
    /// 28 cells at three resolutions: set j takes the hexagon-area points 28j ..< 28j + 28 and
    /// holds every resolution-9 descendant of the first two points' resolution-6 cells
    /// (2 × 343), of the next six points' resolution-7 cells (6 × 49), and the last twenty
    /// points' own resolution-9 cells (20), each family ascending, in that order; then the set
    /// is shuffled (Fisher–Yates from the last index down, swapping index i with
    /// next() % (i + 1), one stream over all the sets in order), since real input is rarely sorted.
    static let compactCellSets: [[H3Cell]] = {
        let pointsPerSet = 2 + 6 + 20
        let points = BenchmarkInputs.hexagonPoints(count: compactSets * pointsPerSet)
        var rng = SplitMix64(seed: compactSeed)
        let sets = (0..<compactSets).map { j in
            let p = points[j * pointsPerSet..<(j + 1) * pointsPerSet]
            var set: [H3Cell] = []
            for (offset, point) in p.enumerated() {
                let parentResolution = offset < 2 ? 6 : offset < 8 ? 7 : 9
                let parent = try! H3Cell(point, resolution: H3Resolution(rawValue: parentResolution)!)
                set += try! parent.children(at: resolution9).sorted()
            }
            precondition(set.count == compactSetSize && Set(set).count == set.count,
                         "compactCells set \(j): \(set.count) cells, \(Set(set).count) distinct")
            for i in stride(from: set.count - 1, to: 0, by: -1) {
                set.swapAt(i, Int(rng.next() % UInt64(i + 1)))
            }
            return set
        }
        let digest = sets.joined().enumerated().reduce(UInt64(0)) { $0 &+ UInt64($1.offset + 1) &* $1.element.rawValue }
        check("compactCellSets", digest, compactCellSetsDigest)
        return sets
    }()
}
