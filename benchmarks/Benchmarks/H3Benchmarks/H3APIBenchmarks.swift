import Benchmark
import H3Core

// The H3 API benchmarks of the speed item: compactCells, gridDistance, gridRing,
// cellArea and cellToVertexes, each against h3-py 4.5.0 and polars-h3 0.7 (h3o) in the same
// `make bench` run (`anchors/h3_api_anchor.py`, over the same inputs: `H3APIInputs`). Goal:
// faster than polars-h3 per cell on every one. polygonToCells' rows are in
// `H3PolygonBenchmarks.swift`.
//
// As the other H3 benchmarks: 1,000 operations an iteration (the scaling factor), results folded
// into a checksum black-holed once per iteration, figures per operation. An operation is one
// input cell of compactCells (an iteration compacts one set of 1,000), one pair of gridDistance,
// one cell of the others.
func h3APIBenchmarks() {
    // One set of 1,000 resolution-9 cells an iteration (2 resolution-6 and 6 resolution-7
    // families and 20 loose cells, shuffled), cycling through 100 sets: per input cell.
    Benchmark("compactCells res 9") { benchmark, sets in
        let set = sets[benchmark.currentIteration % sets.count]
        let compacted = try! H3Cell.compact(set)
        blackHole(UInt64(compacted.count) ^ compacted[compacted.count - 1].rawValue)
    } setup: {
        H3APIInputs.compactCellSets
    }

    // Pairs of resolution-9 cells 1 to 8 grid steps apart: per pair.
    Benchmark("gridDistance res 9") { benchmark, pairs in
        var checksum = 0
        for pair in BenchmarkInputs.batch(pairs, iteration: benchmark.currentIteration) {
            checksum &+= (try? pair.origin.gridDistance(to: pair.destination)) ?? -1
        }
        blackHole(checksum)
    } setup: {
        H3APIInputs.distancePairs
    }

    Benchmark("gridRing k 2 res 9") { benchmark, cells in
        var checksum: UInt64 = 0
        for cell in BenchmarkInputs.batch(cells, iteration: benchmark.currentIteration) {
            let ring = (try? cell.gridRing(k: 2)) ?? []
            checksum &+= UInt64(ring.count) ^ (ring.last?.rawValue ?? 0)
        }
        blackHole(checksum)
    } setup: {
        H3APIInputs.resolution9Cells
    }

    Benchmark("cellArea m2 res 9") { benchmark, cells in
        var checksum: UInt64 = 0
        for cell in BenchmarkInputs.batch(cells, iteration: benchmark.currentIteration) {
            checksum &+= cell.area(in: .m2).bitPattern
        }
        blackHole(checksum)
    } setup: {
        H3APIInputs.resolution9Cells
    }

    Benchmark("cellToVertexes res 9") { benchmark, cells in
        var checksum: UInt64 = 0
        for cell in BenchmarkInputs.batch(cells, iteration: benchmark.currentIteration) {
            let vertices = cell.vertices
            checksum &+= UInt64(vertices.count) ^ vertices[vertices.count - 1].rawValue
        }
        blackHole(checksum)
    } setup: {
        H3APIInputs.resolution9Cells
    }
}
