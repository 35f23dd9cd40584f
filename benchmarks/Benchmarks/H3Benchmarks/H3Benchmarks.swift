import Benchmark
import H3Core

// Benchmarks of the H3 core, each named after the H3 C function it matches.
//
// Every iteration performs `BenchmarkInputs.scalingFactor` (1,000) operations, one per input,
// on the next inputs of a pre-generated set of 1,000,000, cycling; package-benchmark reports
// the scaled (per-operation) figures, marked `*`. Each operation's result is folded into a
// checksum that is black-holed once per iteration: a `blackHole` call per operation would cost
// as much as `isValidCell` itself.
//
// mallocCountTotal is the number CI will gate: latLngToCell and cellToLatLng must allocate
// nothing (isValidCell and the string parse allocate nothing either); cellToBoundary and
// gridDisk allocate their result arrays.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .throughput, .mallocCountTotal],
        timeUnits: .nanoseconds,
        warmupIterations: 10,
        scalingFactor: BenchmarkInputs.scalingFactor,
        maxDuration: .seconds(2),
        maxIterations: 20_000
    )

    // latLngToCell on points in hexagon areas, at every resolution.
    for resolution in H3Resolution.allCases {
        Benchmark("latLngToCell res \(resolution.rawValue)") { benchmark, points in
            var checksum: UInt64 = 0
            for point in BenchmarkInputs.batch(points, iteration: benchmark.currentIteration) {
                checksum &+= (try? H3Cell(point, resolution: resolution))?.rawValue ?? 0
            }
            blackHole(checksum)
        } setup: {
            BenchmarkInputs.hexagonPoints
        }
    }

    // latLngToCell within 1 km of the 12 pentagon centres, where the pentagon rotations apply.
    for resolution in [9, 15].compactMap(H3Resolution.init(rawValue:)) {
        Benchmark("latLngToCell near pentagons res \(resolution.rawValue)") { benchmark, points in
            var checksum: UInt64 = 0
            for point in BenchmarkInputs.batch(points, iteration: benchmark.currentIteration) {
                checksum &+= (try? H3Cell(point, resolution: resolution))?.rawValue ?? 0
            }
            blackHole(checksum)
        } setup: {
            BenchmarkInputs.pentagonPoints
        }
    }

    Benchmark("cellToLatLng res 15") { benchmark, cells in
        var checksum: UInt64 = 0
        for cell in BenchmarkInputs.batch(cells, iteration: benchmark.currentIteration) {
            let center = cell.center
            checksum &+= center.latitude.bitPattern ^ center.longitude.bitPattern
        }
        blackHole(checksum)
    } setup: {
        BenchmarkInputs.resolution15Cells
    }

    for (name, cells) in [("15", { BenchmarkInputs.resolution15Cells }), ("9", { BenchmarkInputs.resolution9Cells })] {
        Benchmark("cellToBoundary res \(name)") { benchmark, cells in
            var checksum: UInt64 = 0
            for cell in BenchmarkInputs.batch(cells, iteration: benchmark.currentIteration) {
                let boundary = cell.boundary
                checksum &+= UInt64(boundary.count) ^ boundary[boundary.count - 1].latitude.bitPattern
            }
            blackHole(checksum)
        } setup: {
            cells()
        }
    }

    for k in [1, 2] {
        Benchmark("gridDisk k \(k) res 9") { benchmark, cells in
            var checksum: UInt64 = 0
            for cell in BenchmarkInputs.batch(cells, iteration: benchmark.currentIteration) {
                let disk = (try? cell.gridDisk(k: k)) ?? []
                checksum &+= UInt64(disk.count) ^ (disk.last?.rawValue ?? 0)
            }
            blackHole(checksum)
        } setup: {
            BenchmarkInputs.resolution9Cells
        }
    }

    Benchmark("isValidCell res 15") { benchmark, indexes in
        var valid = 0
        for index in BenchmarkInputs.batch(indexes, iteration: benchmark.currentIteration) {
            valid &+= H3Cell.isValid(index) ? 1 : 0
        }
        blackHole(valid)
    } setup: {
        BenchmarkInputs.resolution15Indexes
    }

    // H3's stringToH3 plus the isValidCell check that `H3Cell(string:)` adds.
    Benchmark("stringToH3 res 15") { benchmark, strings in
        var checksum: UInt64 = 0
        for string in BenchmarkInputs.batch(strings, iteration: benchmark.currentIteration) {
            checksum &+= (try? H3Cell(string: string))?.rawValue ?? 0
        }
        blackHole(checksum)
    } setup: {
        BenchmarkInputs.resolution15Strings
    }

    // compactCells, gridDistance, gridRing, cellArea, cellToVertexes (H3APIBenchmarks.swift),
    // against h3-py and polars-h3 in anchors/h3_api_anchor.py.
    h3APIBenchmarks()
    // polygonToCells at res 9 and 11, the flood and the walk
    h3PolygonBenchmarks()
}
